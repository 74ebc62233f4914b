// Parses GitHub workflow files with GitHub's own parser (@actions/workflow-parser, the one behind the
// Actions language service) and prints, as JSON, each file's errors and its document as plain values
// (an expression as its `${{ ... }}` text). Run by tools/deploy/workflows.spec.ts in its own Node: the
// parser is ESM only and imports its schema JSON without an import attribute, which a resolve hook adds.
// Usage: node tools/deploy/workflow-documents.mjs <workflow.yml>...
import { readFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

registerHooks({
  resolve(specifier, context, next) {
    const result = next(specifier, context);
    return result.url.endsWith('.json') ? { ...result, importAttributes: { ...context.importAttributes, type: 'json' } } : result;
  },
});
const parser = await import('@actions/workflow-parser');

function plain(token) {
  if (parser.isMapping(token)) return Object.fromEntries([...token].map(({ key, value }) => [String(plain(key)), plain(value)]));
  if (parser.isSequence(token)) return [...token].map(plain);
  if (parser.isBasicExpression(token)) return `\${{ ${token.expression} }}`;
  if (parser.isLiteral(token)) return token.value ?? null;
  return token.toString();
}

const documents = [];
for (const file of process.argv.slice(2)) {
  const parsed = parser.parseWorkflow({ name: file, content: readFileSync(file, 'utf8') }, new parser.NoOperationTraceWriter());
  // Conversion checks what the schema alone does not (job ids, needs, matrices...).
  const template = await parser.convertWorkflowTemplate(parsed.context, parsed.value);
  const errors = [...parsed.context.errors.getErrors().map((error) => error.message), ...(template.errors ?? []).map((error) => error.Message)];
  documents.push({ file, errors: [...new Set(errors)], document: parsed.value ? plain(parsed.value) : null });
}
process.stdout.write(JSON.stringify(documents));
