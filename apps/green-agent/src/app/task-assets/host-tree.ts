/**
 * A task's source tree on this host (`<workspaceDir>/src-vul`), which the judge reads and no solver
 * command reaches: the whole tree, or only what the judge reads when the tree went into a container
 * (the files named as the fix's are, every folder and link).
 */
export interface HostTree {
  readonly dir: string;
  readonly extent: 'whole' | 'judged';
  /** Writes the tree's files named as `paths` are into `dir` too, from the archive; nothing to do for a whole tree. */
  addFiles(paths: readonly string[]): Promise<void>;
}
