import fs from 'node:fs';
import path from 'node:path';
import Handlebars from 'handlebars';
import type mjml2htmlFunction from 'mjml';
import { lazyRequire } from '../utils/lazy-require.server.ts';
import { getEnv } from '../env.server.ts';
import { formatEur } from '../utils/format.ts';
import { TEMPLATE_VARIABLES, type TemplateVariable } from './schemas.ts';

/**
 * Staff templates (docs/domain-model.md, docs/api.md): subject and body are plain text with the
 * four `{{variables}}` and nothing else of Handlebars. The body is escaped as
 * a whole (HTML typed into the template or carried by a value renders as
 * text), line breaks become <br>, bare http(s) URLs become links, and the
 * result goes into the one MJML layout in emails/layout.mjml, which is
 * compiled once and then filled as a Handlebars template.
 */

export type TemplateVariables = Partial<Record<TemplateVariable, string | number | null | undefined>>;

export interface TemplateProblem {
  field: 'subject' | 'body';
  line: number;
  message: string;
}

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
  /** The links of the body, in order; a tracked email's click redirect only ever goes to one of these. */
  links: string[];
}

export const SAMPLE_VARIABLES: TemplateVariables = {
  client_name: 'Ana Horvat',
  company_name: 'Primjer d.o.o.',
  invoice_number: 'R-2026-001',
  amount: '12500.00',
  debtor_name: 'Kupac d.d.',
  factor_name: 'FinFlow Faktoring d.o.o.',
  factor_iban: 'HR1723600001101234565',
  payment_reference: 'HR00 2026-7-000042',
  due_date: '15.12.2026.',
  open_amount: '12500.00',
  debtor_link: 'https://finflow.example/debtor/primjer',
};

const ALLOWED = new Set<string>(TEMPLATE_VARIABLES);

/** Every problem of one field: syntax errors (with Handlebars' line) or anything but the plain variables of TEMPLATE_VARIABLES. */
function problemsOf(field: TemplateProblem['field'], source: string): TemplateProblem[] {
  let program: hbs.AST.Program;
  try {
    program = Handlebars.parse(source);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const line = Number(/line (\d+)/i.exec(message)?.[1] ?? '1');
    const detail = message.split('\n').at(-1)?.trim() || message;
    return [{ field, line, message: `Line ${line}: template syntax error (${detail})` }];
  }
  const problems: TemplateProblem[] = [];
  for (const node of program.body) {
    const line = node.loc?.start.line ?? 1;
    if (node.type === 'ContentStatement' || node.type === 'CommentStatement') continue;
    if (node.type === 'MustacheStatement') {
      const mustache = node as hbs.AST.MustacheStatement;
      const pathNode = mustache.path as hbs.AST.PathExpression;
      const name = pathNode.type === 'PathExpression' ? pathNode.original : String((mustache.path as { original?: unknown }).original ?? '');
      const plain = pathNode.type === 'PathExpression' && pathNode.parts.length === 1 && pathNode.depth === 0 && !pathNode.data;
      if (!plain || mustache.params.length > 0 || (mustache.hash && mustache.hash.pairs.length > 0)) {
        problems.push({ field, line, message: `Line ${line}: only the variables ${variableList()} are allowed, not {{${name}${mustache.params.length ? ' …' : ''}}}` });
      } else if (!ALLOWED.has(name)) {
        problems.push({ field, line, message: `Line ${line}: unknown variable {{${name}}}; allowed: ${variableList()}` });
      } else if (!mustache.escaped) {
        problems.push({ field, line, message: `Line ${line}: use {{${name}}} (double braces); triple braces are not allowed` });
      }
      continue;
    }
    const kind = node.type === 'BlockStatement' ? 'blocks' : node.type === 'PartialStatement' || node.type === 'PartialBlockStatement' ? 'partials' : 'helpers';
    problems.push({ field, line, message: `Line ${line}: ${kind} are not allowed; only the variables ${variableList()}` });
  }
  return problems;
}

function variableList(): string {
  return TEMPLATE_VARIABLES.map((name) => `{{${name}}}`).join(', ');
}

/** The problems of a template's subject and body; an empty list means it can be saved. */
export function validateTemplate(template: { subject: string; body: string }): TemplateProblem[] {
  return [...problemsOf('subject', template.subject), ...problemsOf('body', template.body)];
}

/** A decimal in EUR as the reader expects it ('12.500,00 EUR'); anything else as it is. */
function money(amount: TemplateVariables[TemplateVariable]): string {
  return amount === null || amount === undefined || amount === '' ? '' : Number.isFinite(Number(amount)) ? formatEur(amount, { decimals: 2 }) : String(amount);
}

function valuesOf(variables: TemplateVariables): Record<TemplateVariable, string> {
  const values = Object.fromEntries(TEMPLATE_VARIABLES.map((name) => [name, String(variables[name] ?? '')])) as Record<TemplateVariable, string>;
  return { ...values, amount: money(variables.amount), open_amount: money(variables.open_amount) };
}

/** Plain text: the validated template filled without any escaping (the escaping happens once, on the whole, for HTML). */
function fillPlain(source: string, values: Record<TemplateVariable, string>): string {
  if (validateTemplate({ subject: 'x', body: source }).length > 0) throw new Error('Template is not valid');
  return Handlebars.compile(source, { noEscape: true, strict: false, knownHelpersOnly: true })(values);
}

const URL_PATTERN = /https?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)\]]/g;

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** Escaped body HTML: URLs become links (through `hrefOf`), line breaks <br>. */
function bodyHtml(text: string, hrefOf: (url: string, index: number) => string): { html: string; links: string[] } {
  const links: string[] = [];
  let html = '';
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const url = match[0];
    html += escapeHtml(text.slice(last, match.index));
    const index = links.push(url) - 1;
    html += `<a href="${escapeHtml(hrefOf(url, index))}" style="color:#0b3d91">${escapeHtml(url)}</a>`;
    last = (match.index ?? 0) + url.length;
  }
  html += escapeHtml(text.slice(last));
  return { html: html.replace(/\r\n|\r|\n/g, '<br />\n'), links };
}

const mjml2html = lazyRequire<typeof mjml2htmlFunction>('mjml');

let layout: HandlebarsTemplateDelegate | undefined;

function layoutTemplate(): HandlebarsTemplateDelegate {
  if (!layout) {
    const source = fs.readFileSync(path.resolve(process.cwd(), 'emails', 'layout.mjml'), 'utf8');
    const { html, errors } = mjml2html()(source, { validationLevel: 'soft', minify: false });
    if (errors.length > 0) throw new Error(`emails/layout.mjml: ${errors.map((error) => error.formattedMessage).join('; ')}`);
    layout = Handlebars.compile(html, { strict: false });
  }
  return layout;
}

function contactEmail(): string {
  const from = getEnv().MAIL_FROM;
  return /<([^>]+)>/.exec(from)?.[1] ?? from;
}

export interface Tracking {
  /** Absolute URL of the open pixel. */
  pixelUrl: string;
  /** Absolute URL of the click redirect of link `index`. */
  clickUrl: (index: number) => string;
}

/** `{subject, html, text, links}` of a template with these variables; with `tracking`, links go through the redirect and a pixel is added. */
export function renderEmail(template: { subject: string; body: string }, variables: TemplateVariables, options: { tracking?: Tracking } = {}): RenderedEmail {
  const values = valuesOf(variables);
  const subject = fillPlain(template.subject, values)
    .replace(/\s*[\r\n]+\s*/g, ' ')
    .trim()
    .slice(0, 255);
  const text = fillPlain(template.body, values);
  const tracking = options.tracking;
  const body = bodyHtml(text, (url, index) => (tracking ? tracking.clickUrl(index) : url));
  const env = getEnv();
  const html = layoutTemplate()({
    subject,
    preview: text.replace(/\s+/g, ' ').slice(0, 120),
    body_html: body.html,
    contact_email: contactEmail(),
    app_url: env.APP_URL,
    tracking_pixel: tracking ? `<img src="${escapeHtml(tracking.pixelUrl)}" width="1" height="1" alt="" style="display:block;border:0;width:1px;height:1px" />` : '',
  });
  const footer = `\n\n--\nFinFlow · ${contactEmail()} · ${env.APP_URL}\nOdjava: odgovorite na ovu poruku s naslovom "Odjava".`;
  return { subject, html, text: `${text}${footer}`, links: body.links };
}

/** POST /api/email/templates/preview: the template with sample data, untracked. */
export function previewTemplate(template: { subject: string; body: string }): { subject: string; html: string; text: string } {
  const { subject, html, text } = renderEmail(template, SAMPLE_VARIABLES);
  return { subject, html, text };
}
