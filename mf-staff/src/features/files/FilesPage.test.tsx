import { render, screen, waitFor } from '@testing-library/react';
import { initTestI18n, mockFetch } from '@messenger/shared/testing';
import '../../i18n';
import { FilesPage } from './FilesPage';

beforeAll(async () => {
  await initTestI18n();
});

test('files are listed by the name they were uploaded with, the storage name beside it', async () => {
  mockFetch({
    'GET /api/file/tree': {
      body: {
        path: '2026/03',
        truncated: false,
        entries: [
          { name: 'f3a9c1d2e4b5a6978812.png', path: '2026/03/f3a9c1d2e4b5a6978812.png', type: 'file', size: 2048, mime: 'image/png', owner_id: 4, original_name: 'Holiday photo.png' },
          { name: '0b1c2d3e4f5a6b7c8d9e.webm', path: '2026/03/0b1c2d3e4f5a6b7c8d9e.webm', type: 'file', size: 512, mime: 'audio/webm' },
        ],
      },
    },
  });
  render(<FilesPage />);
  expect(await screen.findByRole('button', { name: 'Open Holiday photo.png' })).toHaveTextContent('Holiday photo.png');
  expect(screen.getByText('f3a9c1d2e4b5a6978812.png')).toBeInTheDocument();
  // A file the table does not know (e.g. one put there by hand) keeps its storage name.
  expect(screen.getByRole('button', { name: 'Open 0b1c2d3e4f5a6b7c8d9e.webm' })).toBeInTheDocument();
});

test('a folder with more entries than are listed says so', async () => {
  const entry = (index: number) => ({ name: `f${index}.png`, path: `big/f${index}.png`, type: 'file', size: 1, mime: 'image/png' });
  mockFetch({ 'GET /api/file/tree': { body: { path: 'big', truncated: true, entries: [entry(1), entry(2)] } } });
  render(<FilesPage />);
  expect(await screen.findByText('Only the first 2 entries of this folder are shown.')).toHaveAttribute('role', 'status');
});

test('a file opens in a tab opened by the click itself, sent to the file once its address is known', async () => {
  const entry = { name: 'call-1-2.webm', path: 'recordings/5/call-1-2.webm', type: 'file', size: 512, mime: 'audio/webm' };
  let answerTokens: (value: unknown) => void = () => undefined;
  const tokens = new Promise((resolve) => (answerTokens = resolve));
  mockFetch({
    'GET /api/file/tree': { body: { path: 'recordings/5', truncated: false, entries: [entry] } },
    'POST /api/file/tokens': () => ({ body: { tokens: { [entry.path]: 'media-token' }, expires_in: 3600 } }),
  });
  const tab = { opener: 'the app' as unknown, location: { replace: jest.fn() }, close: jest.fn() };
  const open = jest.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
  try {
    render(<FilesPage />);
    const file = await screen.findByRole('button', { name: 'Open call-1-2.webm' });
    // The click opens the tab before any answer (a browser refuses a tab opened later as a pop-up).
    const fetchBefore = globalThis.fetch;
    globalThis.fetch = jest.fn(async (...args: Parameters<typeof fetch>) => {
      await tokens;
      return fetchBefore(...args);
    }) as typeof fetch;
    file.click();
    expect(open).toHaveBeenCalledWith('', '_blank');
    expect(tab.opener).toBeNull();
    expect(tab.location.replace).not.toHaveBeenCalled();
    answerTokens(undefined);
    await waitFor(() => expect(tab.location.replace).toHaveBeenCalledWith('/api/receive/admin/recordings/5/call-1-2.webm?token=media-token'));
    expect(open).toHaveBeenCalledTimes(1);
    expect(tab.close).not.toHaveBeenCalled();
  } finally {
    open.mockRestore();
  }
});
