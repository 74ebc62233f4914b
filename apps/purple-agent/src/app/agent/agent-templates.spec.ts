import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentTemplates, defaultTemplateDir, renderTemplate } from './agent-templates';

describe('agent templates', () => {
  it('fill in variables, keep {{#flag}} sections when truthy and {{^flag}} sections when falsy', () => {
    const template = 'rc={{rc}} {{#long}}head={{head}}{{/long}}{{^long}}all={{all}}{{/long}}';

    expect(renderTemplate(template, { rc: 0, long: true, head: 'ab', all: 'abc' })).toBe('rc=0 head=ab');
    expect(renderTemplate(template, { rc: 1, long: false, head: 'ab', all: 'abc' })).toBe('rc=1 all=abc');
  });

  it('insert values verbatim, never expanding what they contain', () => {
    expect(renderTemplate('<{{output}}>', { output: '{{output}} {{#x}}' })).toBe('<{{output}} {{#x}}>');
  });

  it('refuse a variable that was not given, naming the template', () => {
    expect(() => renderTemplate('{{missing}}', {}, 'observation')).toThrow('template observation uses {{missing}}, which was not given');
  });

  it('load the bundled templates from the source tree, and fail naming a missing file', async () => {
    const templates = await AgentTemplates.load();
    const empty = await mkdtemp(join(tmpdir(), 'purple-templates-'));
    try {
      expect(defaultTemplateDir()).toMatch(/src\/assets\/templates$/);
      expect(templates.render('system')).toContain('Exactly one bash code block');
      await expect(AgentTemplates.load(empty)).rejects.toThrow(`agent template system is missing: no file ${join(empty, 'system.md')}`);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});
