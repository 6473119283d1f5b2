// mjml 4 ships no type declarations; this is the part FinFlow uses.
declare module 'mjml' {
  interface MjmlError {
    line: number;
    message: string;
    tagName: string;
    formattedMessage: string;
  }
  export default function mjml2html(input: string, options?: { validationLevel?: 'strict' | 'soft' | 'skip'; minify?: boolean }): { html: string; errors: MjmlError[] };
}
