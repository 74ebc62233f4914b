import { NeededSet, type NeededHold } from '@arvo-rca/common';

/** What one assessment still needs: each image once per remaining task, released as its tasks end. */
export type ImageHold = NeededHold;

/**
 * The images that a remaining task of any running assessment needs: the disk budget never removes them.
 * An assessment holds its task list's images when it starts and releases each as its task ends.
 */
export class NeededImages extends NeededSet {}
