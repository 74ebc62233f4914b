/** What one assessment still needs: each image once per remaining task, released as its tasks end. */
export interface ImageHold {
  /** One task of the image ended. */
  release(image: string): void;
  /** The assessment ended: it needs none of them any more. */
  releaseAll(): void;
}

/**
 * The images that a remaining task of any running assessment needs: the disk budget never removes them.
 * An assessment holds its task list's images when it starts and releases each as its task ends.
 */
export class NeededImages {
  private readonly counts = new Map<string, number>();

  hold(images: string[]): ImageHold {
    const held = new Map<string, number>();
    for (const image of images) {
      held.set(image, (held.get(image) ?? 0) + 1);
      this.add(image, 1);
    }
    return {
      release: (image) => {
        const left = held.get(image) ?? 0;
        if (left === 0) return;
        held.set(image, left - 1);
        this.add(image, -1);
      },
      releaseAll: () => {
        for (const [image, left] of held) this.add(image, -left);
        held.clear();
      },
    };
  }

  isNeeded(image: string): boolean {
    return (this.counts.get(image) ?? 0) > 0;
  }

  private add(image: string, change: number): void {
    const count = (this.counts.get(image) ?? 0) + change;
    if (count > 0) this.counts.set(image, count);
    else this.counts.delete(image);
  }
}
