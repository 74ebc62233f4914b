/** `log_<YYYY-MM-DD_HH-MM-SS>`: the name of one run's log directory, in local time as operators read it. */
export function runDirectoryName(at: Date): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  const day = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
  const time = `${pad(at.getHours())}-${pad(at.getMinutes())}-${pad(at.getSeconds())}`;
  return `log_${day}_${time}`;
}

/** `arvo_14368.log` for task `arvo:14368`: one file per task id, shared by both agents. */
export function taskLogFileName(taskId: string): string {
  return `${taskId.replace(':', '_')}.log`;
}
