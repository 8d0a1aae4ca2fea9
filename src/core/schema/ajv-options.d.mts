export declare const ajvOptions: { allErrors: boolean; strict: boolean; validateFormats: boolean };
