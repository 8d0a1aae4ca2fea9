// One set of Ajv options for the build-time compiler and the run-time one, so built-in and user
// schemas validate alike: collect every issue, no coercion (baton coerces explicitly).
export const ajvOptions = { allErrors: true, strict: false, validateFormats: false };
