import { imagesOfTasks, imagesToMakeBeforehand } from './task-images';

describe('the images a task list needs', () => {
  it('names the image of each task by its source, a bare id being an ARVO task', () => {
    expect(imagesOfTasks(['sample:1', 'arvo:14368', '10055']).map(({ image, source, id }) => [image, source, id])).toEqual([
      ['arvo-rca-sample:1-vul', 'sample', '1'],
      ['n132/arvo:14368-vul', 'arvo', '14368'],
      ['n132/arvo:10055-vul', 'arvo', '10055'],
    ]);
  });

  it("names an ARVO task's image by the green agent's ARVO_IMAGE_TEMPLATE where it sets one", () => {
    expect(imagesOfTasks(['arvo:14368', 'sample:1'], 'mirror.example:5000/arvo:{id}-vul').map(({ image }) => image)).toEqual([
      'mirror.example:5000/arvo:14368-vul',
      'arvo-rca-sample:1-vul',
    ]);
  });

  it('names an image once, with every task that runs in it', () => {
    expect(imagesOfTasks(['sample:2', 'SAMPLE:2', 'arvo:7', '7'])).toEqual([
      { image: 'arvo-rca-sample:2-vul', source: 'sample', id: '2', tasks: ['sample:2', 'SAMPLE:2'] },
      { image: 'n132/arvo:7-vul', source: 'arvo', id: '7', tasks: ['arvo:7', '7'] },
    ]);
  });

  it('needs nothing for a task of an unknown source or a malformed id, which the green agent refuses by name', () => {
    expect(imagesOfTasks(['foo:1', 'arvo:', 'arvo:1 2'])).toEqual([]);
  });

  it('leaves the ARVO images to the green agent when it has an image budget, so that they count in it', () => {
    const images = imagesOfTasks(['sample:1', 'arvo:14368']);

    expect(imagesToMakeBeforehand(images, '40g').map(({ image }) => image)).toEqual(['arvo-rca-sample:1-vul']);
    expect(imagesToMakeBeforehand(images, '0')).toEqual(images);
    expect(imagesToMakeBeforehand(images, undefined)).toEqual(images);
  });
});
