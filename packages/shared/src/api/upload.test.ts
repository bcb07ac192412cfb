import { uploadFile } from './upload';

/** Every XMLHttpRequest opened during a test (jsdom's would try to reach a server). */
const opened: string[] = [];
class RecordingRequest {
  upload = {};
  open(method: string, url: string) {
    opened.push(`${method} ${url}`);
  }
  setRequestHeader() {}
  send() {}
  abort() {}
}

describe('uploadFile', () => {
  const realRequest = globalThis.XMLHttpRequest;
  beforeEach(() => {
    opened.length = 0;
    globalThis.XMLHttpRequest = RecordingRequest as unknown as typeof XMLHttpRequest;
  });
  afterEach(() => {
    globalThis.XMLHttpRequest = realRequest;
  });

  it('sends nothing for an upload cancelled before it went', async () => {
    const controller = new AbortController();
    controller.abort();
    const upload = uploadFile(new Blob(['picture']), 0, { signal: controller.signal });
    await expect(upload).rejects.toMatchObject({ name: 'AbortError' });
    expect(opened).toEqual([]);
  });

  it('sends an upload that was not cancelled', () => {
    void uploadFile(new Blob(['picture']), 0, { signal: new AbortController().signal });
    expect(opened).toEqual(['POST /api/file/upload']);
  });
});
