import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOC_JSON_PATH, renderTemplate, TemplateError } from '@arvo-rca/common';
import { LOC_JSON_SHAPE_TEXT } from '@arvo-rca/loc-json';
import { DIALECTS, type DialectName } from '@arvo-rca/a2a-protocol';

// The template ships as an asset: next to the bundle in dist, under src/assets in the sources.
const TEMPLATE_CANDIDATES = [join(__dirname, 'assets', 'templates'), join(__dirname, '..', '..', '..', 'assets', 'templates')];

export interface TaskDescriptionInput {
  /** The task as the solver knows it: its task id, or its masked id. */
  taskId: string;
  /** Where the crash report is in the sandbox. */
  errorPath: string;
  errorReport: string;
  imageNote: string;
  /** The dialect the solver speaks: the description's "How to work" is its own. */
  dialect: DialectName;
}

export function loadTemplate(name: string): string {
  for (const dir of TEMPLATE_CANDIDATES) {
    try {
      return readFileSync(join(dir, name), 'utf8');
    } catch {
      // try the next place
    }
  }
  throw new TemplateError('TEMPLATE_MISSING', `template ${name} not found in ${TEMPLATE_CANDIDATES.join(' or ')}`);
}

export function renderTaskDescription(template: string, input: TaskDescriptionInput): string {
  return renderTemplate(
    template,
    {
      task_id: input.taskId,
      error_path: input.errorPath,
      error_report: input.errorReport.trimEnd(),
      image_note: input.imageNote,
      loc_json_path: LOC_JSON_PATH,
      loc_json_shape: LOC_JSON_SHAPE_TEXT,
      reply: input.dialect === DIALECTS.reply,
      callback: input.dialect === DIALECTS.callback,
      shell: input.dialect === DIALECTS.terminalBenchShell,
    },
    'task-description',
  );
}
