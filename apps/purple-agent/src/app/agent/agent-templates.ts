import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { renderTemplate, TemplateError, type TemplateVars } from '@arvo-rca/common';

export const TEMPLATE_NAMES = ['system', 'instance', 'observation', 'format-error', 'truncated-reply', 'submission-rejected'] as const;
export type TemplateName = (typeof TEMPLATE_NAMES)[number];

/**
 * The bundled templates: `src/assets/templates/*.md`, which webpack copies to `assets/templates/`
 * next to `main.js`. In the bundle `__dirname` is the bundle's directory; from source (tests, tsx)
 * it is this file's, two levels below `src/`.
 */
export function defaultTemplateDir(): string {
  const candidates = [join(__dirname, 'assets', 'templates'), join(__dirname, '..', '..', 'assets', 'templates')];
  return candidates.find((dir) => existsSync(join(dir, 'system.md'))) ?? candidates[0];
}

/** The prompt texts of the loop, read once at boot and rendered per message. */
export class AgentTemplates {
  private constructor(private readonly texts: ReadonlyMap<TemplateName, string>) {}

  static async load(dir: string = defaultTemplateDir()): Promise<AgentTemplates> {
    const texts = new Map<TemplateName, string>();
    for (const name of TEMPLATE_NAMES) {
      const file = join(dir, `${name}.md`);
      const text = await readFile(file, 'utf8').catch(() => {
        throw new TemplateError('TEMPLATE_MISSING', `agent template ${name} is missing: no file ${file}`);
      });
      texts.set(name, text.replace(/\n$/, ''));
    }
    return new AgentTemplates(texts);
  }

  render(name: TemplateName, vars: TemplateVars = {}): string {
    return renderTemplate(this.texts.get(name) ?? '', vars, name);
  }
}
