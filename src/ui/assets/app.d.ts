// app.js is the page's script, imported by the server as text.
declare const text: string;
export default text;
