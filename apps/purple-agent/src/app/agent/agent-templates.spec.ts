import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentTemplates, defaultTemplateDir } from './agent-templates';

describe('agent templates', () => {
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
