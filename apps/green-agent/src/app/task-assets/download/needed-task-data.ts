import { NeededSet } from '@arvo-rca/common';

/**
 * The tasks whose cached data is still needed, by task id: each task from its preparation until its
 * workspace goes (the judge reads the archive and the fix at its end), and each remaining task of a running
 * assessment. The task data budget never removes what is needed.
 */
export class NeededTaskData extends NeededSet {}
