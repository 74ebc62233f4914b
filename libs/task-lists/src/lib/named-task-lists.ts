// The task lists shipped with the project, by name: their files are in the repository's task-lists/ folder
// (the green agent's TASK_LISTS_DIR), whose README says where each comes from.

interface NamedTaskList {
  name: string;
  /** Its file in the lists folder. */
  file: string;
  /** Where its ids come from, said when its file is missing. */
  provenance: string;
  /** The paths by which the original's requests name it in `task_ids_file`. */
  aliases: readonly string[];
}

export const NAMED_TASK_LISTS: readonly NamedTaskList[] = [
  {
    name: 'rcabench-1000',
    file: 'rcabench-1000.txt',
    provenance: "the original's data/arvo_hf_task_ids.txt: 1,000 ARVO ids of the CyberGym data set",
    aliases: ['data/arvo_hf_task_ids.txt', 'arvo_hf_task_ids.txt'],
  },
  {
    name: 'rcabench-clean-181',
    file: 'rcabench-clean-181.txt',
    provenance: "the original's data/successful_task_ids.txt: 181 ARVO ids whose fixes it confirmed clean",
    aliases: ['data/successful_task_ids.txt', 'successful_task_ids.txt'],
  },
  { name: 'samples', file: 'samples.txt', provenance: 'the bundled sample tasks, sample:1 to sample:5', aliases: [] },
];

/** The named list `spec` names: its name (with or without a leading `@`) or one of the original's paths for it. */
export function namedTaskList(spec: string): NamedTaskList | undefined {
  const name = spec.trim().replace(/^@/, '');
  return NAMED_TASK_LISTS.find((list) => list.name === name || list.aliases.includes(name));
}

/** Whether `spec` is meant as a list name rather than a file: it starts with `@`, or has neither a `/` nor a `.`. */
export function isListName(spec: string): boolean {
  const trimmed = spec.trim();
  return trimmed.startsWith('@') || !/[/\\.]/.test(trimmed);
}
