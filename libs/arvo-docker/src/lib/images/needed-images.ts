import { NeededSet } from '@arvo-rca/common';

/**
 * The images that a remaining task of any running assessment needs: the disk budget never removes them.
 * An assessment holds its task list's images when it starts and releases each as its task ends.
 */
export class NeededImages extends NeededSet {}
