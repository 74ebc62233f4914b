// Enclosing C function names with tree-sitter: a real parser, so macros, K&R definitions and odd
// declarators are read as the compiler would read them, not guessed by a regex.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Language, Parser, type Node } from 'web-tree-sitter';
import { JudgeError } from './judge-error';

export interface TreeSitterWasmPaths {
  /** web-tree-sitter's runtime, `web-tree-sitter/web-tree-sitter.wasm`. */
  runtime: string;
  /** The C grammar, `tree-sitter-c/tree-sitter-c.wasm`. */
  cGrammar: string;
}

// web-tree-sitter holds one wasm runtime per process, and two inits racing would build two and mix their
// objects: every locator shares the first init. The runtime gets its bytes directly, so nothing in it has
// to locate or import files (which a bundle or Jest's module system would get wrong).
let runtimeReady: Promise<void> | undefined;

/** The declarator kinds that wrap the name of a function being defined. */
const NAME_NODES = new Set([
  'identifier',
  'field_identifier',
  'qualified_identifier',
  'destructor_name',
  'operator_name',
]);

/**
 * Finds the function definition that encloses a line of a C source file. C++ files are read with the C
 * grammar as a best effort (no C++ grammar is installed): plain functions and `Class::method` bodies are
 * found, templates often not. A line the parser cannot place in a definition gets an empty name.
 */
export class CFunctionLocator {
  private constructor(private readonly language: Language) {}

  /** Loads the parser runtime and the C grammar (about 1 MB of wasm, read once per locator). */
  static async create(paths: TreeSitterWasmPaths = defaultWasmPaths()): Promise<CFunctionLocator> {
    runtimeReady ??= readFile(paths.runtime)
      .then((runtime) => Parser.init({ wasmBinary: runtime }))
      .catch((error: unknown) => {
        runtimeReady = undefined; // a failed init may be retried
        throw unavailable(`the tree-sitter runtime ${paths.runtime}`, error);
      });
    const grammar = readFile(paths.cGrammar).catch((error: unknown) => {
      throw unavailable(`the C grammar ${paths.cGrammar}`, error);
    });
    const [grammarBytes] = await Promise.all([grammar, runtimeReady]);
    return new CFunctionLocator(await Language.load(new Uint8Array(grammarBytes)));
  }

  /** The names of the functions enclosing each 1-based line (empty string where none does). */
  enclosingFunctions(source: string, lines: number[]): string[] {
    const parser = new Parser();
    try {
      parser.setLanguage(this.language);
      const tree = parser.parse(source);
      if (!tree) return lines.map(() => '');
      try {
        return lines.map((line) => enclosingFunctionName(tree.rootNode, line - 1));
      } finally {
        tree.delete();
      }
    } finally {
      parser.delete();
    }
  }

  enclosingFunction(source: string, line: number): string {
    return this.enclosingFunctions(source, [line])[0];
  }
}

/**
 * The innermost named function definition around a 0-based row. Every child covering the row is searched,
 * not just the first: on a line shared by several nodes the definition may be in any of them.
 */
function enclosingFunctionName(node: Node, row: number): string {
  for (const child of node.namedChildren) {
    if (!child || !covers(child, row)) continue;
    const inner = enclosingFunctionName(child, row);
    if (inner) return inner;
  }
  return node.type === 'function_definition' ? functionName(node) : '';
}

function covers(node: Node, row: number): boolean {
  return node.startPosition.row <= row && row <= node.endPosition.row;
}

/**
 * The defined name: follow the `declarator` fields (through pointers, parentheses, attributes and the
 * function declarator itself) down to the identifier. `int (*get_handler(int))(void)` gives `get_handler`,
 * a macro-wrapped `PHP_FUNCTION(strlen)` gives `strlen`.
 */
function functionName(definition: Node): string {
  let node: Node | null = definition.childForFieldName('declarator');
  for (let depth = 0; node && depth < 32; depth++) {
    if (NAME_NODES.has(node.type)) return node.text;
    node =
      node.childForFieldName('declarator') ??
      node.namedChildren.find((child) => child?.type !== 'attribute_specifier') ??
      null;
  }
  return '';
}

function unavailable(what: string, cause: unknown): JudgeError {
  // Duck-typed: errors from Node's own modules may come from another realm (as under Jest).
  const message = (cause as { message?: unknown } | null)?.message;
  const reason = typeof message === 'string' ? message : String(cause);
  return new JudgeError('PARSER_UNAVAILABLE', `cannot load ${what}: ${reason}`, { cause });
}

/** The wasm files from node_modules, resolved with Node's own resolver (a bundled `require.resolve` is not). */
export function defaultWasmPaths(): TreeSitterWasmPaths {
  const requireFrom = [createRequire(__filename), createRequire(join(process.cwd(), 'package.json'))];
  const resolve = (request: string): string => {
    for (const require of requireFrom) {
      try {
        return require.resolve(request);
      } catch {
        // try the next base
      }
    }
    throw new JudgeError('PARSER_UNAVAILABLE', `${request} is not installed: the judge needs it to name functions`);
  };
  return {
    runtime: resolve('web-tree-sitter/web-tree-sitter.wasm'),
    cGrammar: resolve('tree-sitter-c/tree-sitter-c.wasm'),
  };
}
