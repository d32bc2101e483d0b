/**
 * Catches the files a screen saves, by name, into `saved` (emptied before each test): object URLs are made from the
 * fetched blob and handed to an anchor with a download name; jsdom has neither. Call it at a test file's top level.
 */
export function captureSavedFiles(saved: string[]): void {
  beforeEach(() => {
    saved.length = 0;
    URL.createObjectURL = jest.fn(() => 'blob:saved-file');
    URL.revokeObjectURL = jest.fn();
    jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
  });
  afterEach(() => jest.restoreAllMocks());
}
