// Enclosing C and C++ function names with tree-sitter: a real parser, so macros, K&R definitions, odd
// declarators, namespaces, classes and templates are read as the compiler would read them, not guessed
// by a regex.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { extname, join } from 'node:path';
import { Language, Parser, type Node, type Tree } from 'web-tree-sitter';
import type { LineSpan } from '@arvo-rca/loc-json';
import { JudgeError } from './judge-error';

export interface TreeSitterWasmPaths {
  /** web-tree-sitter's runtime, `web-tree-sitter/web-tree-sitter.wasm`. */
  runtime: string;
  /** The C grammar, `tree-sitter-c/tree-sitter-c.wasm`. */
  cGrammar: string;
  /** The C++ grammar, `tree-sitter-cpp/tree-sitter-cpp.wasm`. */
  cppGrammar: string;
}

/** Which grammar reads a file: by its extension; a `.h` may be either. */
type SourceDialect = 'c' | 'cpp' | 'c-or-cpp';

const DIALECTS: Record<string, SourceDialect> = {
  '.c': 'c',
  '.h': 'c-or-cpp',
  '.cc': 'cpp',
  '.cpp': 'cpp',
  '.cxx': 'cpp',
  '.c++': 'cpp',
  '.hpp': 'cpp',
  '.hh': 'cpp',
  '.hxx': 'cpp',
};

/** The dialect of a C or C++ file, or undefined for any other file. */
export function dialectOf(path: string): SourceDialect | undefined {
  return DIALECTS[extname(path).toLowerCase()];
}

// web-tree-sitter holds one wasm runtime per process, and two inits racing would build two and mix their
// objects: every locator shares the first init. The runtime gets its bytes directly, so nothing in it has
// to locate or import files (which a bundle or Jest's module system would get wrong).
let runtimeReady: Promise<void> | undefined;

/** The declarator kinds that wrap the name of a function being defined. */
const NAME_NODES = new Set(['identifier', 'field_identifier', 'destructor_name', 'operator_name']);

/**
 * Finds the function definition that encloses a line of a C or C++ source file. A C++ name is given
 * without its class or namespace (`reset` for `Parser::reset`), as the C grammar read such names and
 * as the task description asks solvers to write them. A line the parser cannot place in a definition
 * gets an empty name.
 */
export class FunctionLocator {
  private constructor(private readonly languages: Record<'c' | 'cpp', Language>) {}

  /** Loads the parser runtime and the two grammars (a few MB of wasm, read once per locator). */
  static async create(paths: TreeSitterWasmPaths = defaultWasmPaths()): Promise<FunctionLocator> {
    runtimeReady ??= readFile(paths.runtime)
      .then((runtime) => Parser.init({ wasmBinary: runtime }))
      .catch((error: unknown) => {
        runtimeReady = undefined; // a failed init may be retried
        throw unavailable(`the tree-sitter runtime ${paths.runtime}`, error);
      });
    const grammar = (what: string, path: string): Promise<Buffer> =>
      readFile(path).catch((error: unknown) => Promise.reject(unavailable(`${what} ${path}`, error)));
    const [c, cpp] = await Promise.all([grammar('the C grammar', paths.cGrammar), grammar('the C++ grammar', paths.cppGrammar), runtimeReady]);
    return new FunctionLocator({ c: await Language.load(new Uint8Array(c)), cpp: await Language.load(new Uint8Array(cpp)) });
  }

  /**
   * The names of the functions enclosing each 1-based line (empty string where none does). A `.h` is
   * read as C, and as C++ when C cannot parse it cleanly but C++ can.
   */
  enclosingFunctions(source: string, lines: number[], dialect: SourceDialect = 'c'): string[] {
    return this.functionsAround(
      source,
      lines.map((line) => ({ start: line, end: line })),
      dialect,
    );
  }

  /**
   * For each span of 1-based lines, the name of the innermost function that holds every line of it (empty
   * string where none does: lines of two functions, or outside any). The place between lines `n` and
   * `n + 1` is held by the function that holds both.
   */
  functionsAround(source: string, spans: LineSpan[], dialect: SourceDialect = 'c'): string[] {
    const parser = new Parser();
    let tree: Tree | null = null;
    try {
      tree = this.parse(parser, source, dialect);
      const root = tree?.rootNode;
      return spans.map(({ start, end }) => (root ? enclosingFunctionName(root, start - 1, end - 1) : ''));
    } finally {
      tree?.delete();
      parser.delete();
    }
  }

  enclosingFunction(source: string, line: number, dialect: SourceDialect = 'c'): string {
    return this.enclosingFunctions(source, [line], dialect)[0];
  }

  private parse(parser: Parser, source: string, dialect: SourceDialect): Tree | null {
    parser.setLanguage(this.languages[dialect === 'cpp' ? 'cpp' : 'c']);
    const tree = parser.parse(source);
    if (dialect !== 'c-or-cpp' || !tree?.rootNode.hasError) return tree;
    parser.setLanguage(this.languages.cpp);
    const asCpp = parser.parse(source);
    if (asCpp && !asCpp.rootNode.hasError) {
      tree.delete();
      return asCpp;
    }
    asCpp?.delete();
    return tree;
  }
}

/**
 * The innermost named function definition around the 0-based rows `first` to `last`. Every child covering
 * them is searched, not just the first: on a line shared by several nodes the definition may be in any of
 * them. A lambda is no definition: its lines belong to the function it is written in.
 */
function enclosingFunctionName(node: Node, first: number, last: number): string {
  for (const child of node.namedChildren) {
    if (!child || !covers(child, first, last)) continue;
    const inner = enclosingFunctionName(child, first, last);
    if (inner) return inner;
  }
  return node.type === 'function_definition' ? functionName(node) : '';
}

function covers(node: Node, first: number, last: number): boolean {
  return node.startPosition.row <= first && last <= node.endPosition.row;
}

/**
 * The defined name: follow the `declarator` fields (through pointers, references, parentheses,
 * attributes and the function declarator itself) down to the name, and a qualified name down to its
 * last part. `int (*get_handler(int))(void)` gives `get_handler`, a macro-wrapped `PHP_FUNCTION(strlen)`
 * gives `strlen`, `Foo<T>::~Foo()` gives `~Foo`.
 */
function functionName(definition: Node): string {
  let node: Node | null = definition.childForFieldName('declarator');
  for (let depth = 0; node && depth < 32; depth++) {
    if (NAME_NODES.has(node.type)) return node.text;
    node =
      node.childForFieldName('declarator') ??
      node.childForFieldName('name') ??
      node.namedChildren.find((child) => child?.type !== 'attribute_specifier' && child?.type !== 'attribute_declaration') ??
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
    cppGrammar: resolve('tree-sitter-cpp/tree-sitter-cpp.wasm'),
  };
}
