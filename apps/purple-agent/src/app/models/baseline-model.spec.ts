import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateLocJson, type LocJson } from '@arvo-rca/loc-json';
import { AgentTemplates } from '../agent/agent-templates';
import { DefaultAgent } from '../agent/default-agent';
import { LocalWorkspaceEnvironment } from '../agent/local-workspace-environment.testing';
import { readSample, sampleErrorReport, sampleIds, sampleTaskDescription } from '../agent/sample-tasks.testing';
import { BaselineModel } from './baseline-model';

// The crash frame of the sample's manifest, read straight from its report: `in <function> /src/<project>/<path>:<line>`.
function manifestCrashFrame(id: string): { path: string; line: number } {
  const { crash_function: fn, project } = readSample(id);
  const match = new RegExp(` in ${fn} /src/${project}/(\\S+):(\\d+)`).exec(sampleErrorReport(id));
  if (!match) throw new Error(`sample ${id}: its report has no frame in ${fn}`);
  return { path: `${project}/${match[1]}`, line: Number(match[2]) };
}

describe('the baseline model, playing the agent loop on every bundled sample', () => {
  let templates: AgentTemplates;
  beforeAll(async () => {
    templates = await AgentTemplates.load();
  });

  it.each(sampleIds())('names the top project crash frame first on sample %s, in a valid loc.json, and submits', async (id) => {
    const environment = await LocalWorkspaceEnvironment.forSample(id);
    try {
      const agent = new DefaultAgent(new BaselineModel(), environment, { templates });

      const result = await agent.run({ taskId: `sample:${id}`, contextId: `baseline-${id}`, description: sampleTaskDescription(id) });

      expect(result.exitStatus).toBe('Submitted');
      expect(environment.finishCalls).toBe(1);
      const text = readFileSync(join(environment.workspace, 'shared', 'loc.json'), 'utf8');
      expect(validateLocJson(text)).toEqual([]);
      expect(result.submission).toBe(text);
      const locJson = JSON.parse(text) as LocJson;
      const crash = manifestCrashFrame(id);
      const [first] = locJson.locations;
      expect(first.file).toBe(crash.path);
      expect(first.function).toBe(readSample(id).crash_function);
      expect(first.line_start).toBeLessThanOrEqual(crash.line);
      expect(first.line_end).toBeGreaterThanOrEqual(crash.line);
      // The span starts at the function's own definition when the function fits in 100 lines.
      const source = readFileSync(join(environment.workspace, 'src-vul', first.file), 'utf8').split('\n');
      expect(source[first.line_start - 1]).toContain(`${first.function}(`);
      expect(locJson.locations.length).toBeLessThanOrEqual(3);
      for (const location of locJson.locations) {
        expect(existsSync(join(environment.workspace, 'src-vul', location.file))).toBe(true);
        expect(location.file).not.toMatch(/(^|\/)fuzz\//);
        expect(location.line_end - location.line_start + 1).toBeLessThanOrEqual(100);
      }
      // It worked through real commands: the report, the files, the functions, the write, the submission.
      expect(environment.commands[0]).toBe(`cat '/workspace/${id}_error.txt'`);
      expect(environment.commands.at(-2)).toBe('echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT');
      expect(environment.commands.at(-1)).toBe('cat /workspace/shared/loc.json');
    } finally {
      await environment.dispose();
    }
  });

  it('puts the allocation site among the candidates when the report has one (sample 5: the image allocator)', async () => {
    const environment = await LocalWorkspaceEnvironment.forSample('5');
    try {
      await new DefaultAgent(new BaselineModel(), environment, { templates }).run({
        taskId: 'sample:5',
        contextId: 'baseline-alloc',
        description: sampleTaskDescription('5'),
      });

      const locJson = JSON.parse(readFileSync(join(environment.workspace, 'shared', 'loc.json'), 'utf8')) as LocJson;
      expect(locJson.locations.map((location) => location.function)).toContain('rz_image_create');
    } finally {
      await environment.dispose();
    }
  });

  it('still submits a loc.json, with no locations, when the report has no stack it can use', async () => {
    const environment = await LocalWorkspaceEnvironment.empty();
    try {
      const description = 'Task sample:9. The crash report is at /workspace/9_error.txt.';
      const result = await new DefaultAgent(new BaselineModel(), environment, { templates }).run({ taskId: 'sample:9', contextId: 'c', description });

      expect(result.exitStatus).toBe('Submitted');
      expect(JSON.parse(result.submission)).toMatchObject({ locations: [] });
    } finally {
      await environment.dispose();
    }
  });
});
