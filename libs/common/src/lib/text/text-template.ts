import { CodedError } from '../coded-error';

export type TemplateErrorCode = 'TEMPLATE_MISSING' | 'TEMPLATE_VARIABLE';

/** A template that is not where it should be, or that uses a value it was not given. */
export class TemplateError extends CodedError<TemplateErrorCode> {}

export type TemplateVars = Record<string, string | number | boolean>;

const SECTION = /\{\{([#^])(\w+)\}\}([\s\S]*?)\{\{\/\2\}\}/g;
const VARIABLE = /\{\{(\w+)\}\}/g;

/**
 * The agents' texts from their templates, a small mustache: `{{name}}`, `{{#flag}}shown when
 * truthy{{/flag}}`, `{{^flag}}shown when falsy{{/flag}}`. Values are inserted verbatim and never
 * re-expanded; an unknown name throws, so a template typo fails the first test rather than reaching
 * a model or a solver.
 */
export function renderTemplate(template: string, vars: TemplateVars, name = 'template'): string {
  const value = (key: string): string | number | boolean => {
    if (!(key in vars)) throw new TemplateError('TEMPLATE_VARIABLE', `template ${name} uses {{${key}}}, which was not given`);
    return vars[key];
  };
  let text = template;
  for (let previous = ''; previous !== text;) {
    previous = text;
    text = text.replace(SECTION, (_, kind: string, key: string, body: string) => (Boolean(value(key)) === (kind === '#') ? body : ''));
  }
  return text.replace(VARIABLE, (_, key: string) => String(value(key)));
}
