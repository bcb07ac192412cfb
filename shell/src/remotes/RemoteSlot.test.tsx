import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { initI18n } from '../i18n';
import { RemoteSlot, preloadRemote } from './RemoteSlot';
import { loadExposed } from './registry';

jest.mock('./registry', () => ({
  Remotes: { messenger: 'mf_messenger', calls: 'mf_calls', staff: 'mf_staff' },
  loadExposed: jest.fn(),
}));

beforeAll(async () => {
  await initI18n();
});

test('shows a translated fallback when a remote cannot load, and loads it on retry', async () => {
  const load = jest.mocked(loadExposed);
  load.mockRejectedValueOnce(new Error('remote down'));
  load.mockResolvedValueOnce({ default: ({ greeting }: { greeting: string }) => <p>{greeting}</p> });
  jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  jest.spyOn(console, 'error').mockImplementation(() => undefined);

  render(<RemoteSlot remote="mf_calls" module="CallsTab" props={{ greeting: 'Hello from the remote' }} />);
  expect(await screen.findByText('This part of Messenger could not be loaded.')).toBeInTheDocument();
  await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
  expect(await screen.findByText('Hello from the remote')).toBeInTheDocument();
  expect(load).toHaveBeenLastCalledWith('mf_calls', 'CallsTab', true);
});

test('a preloaded remote shows in the slot’s first render, without a loading state', async () => {
  const load = jest.mocked(loadExposed);
  load.mockResolvedValueOnce({ default: () => <p>Meeting room</p> });
  await preloadRemote('mf_calls', 'MeetingPage'); // the load settles before anything renders

  render(<RemoteSlot remote="mf_calls" module="MeetingPage" />);
  expect(screen.getByText('Meeting room')).toBeInTheDocument();
  expect(screen.queryByRole('status')).not.toBeInTheDocument();
  expect(load).toHaveBeenCalledTimes(1);
});

test('a slot shows a loading state until its remote arrives', async () => {
  const load = jest.mocked(loadExposed);
  let arrive: (module: { default: () => React.JSX.Element }) => void = () => undefined;
  load.mockReturnValueOnce(new Promise((resolve) => (arrive = resolve)));

  render(<RemoteSlot remote="mf_staff" module="FilesPage" />);
  expect(screen.getByRole('status')).toHaveTextContent('Loading…');
  arrive({ default: () => <p>Files</p> });
  expect(await screen.findByText('Files')).toBeInTheDocument();
  expect(screen.queryByRole('status')).not.toBeInTheDocument();
});

test('a quiet slot that failed says so to its owner, and one mounted later asks for the remote again', async () => {
  const load = jest.mocked(loadExposed);
  load.mockRejectedValueOnce(new Error('remote down'));
  load.mockResolvedValueOnce({ default: () => <p>Incoming call</p> });
  jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  const failed = jest.fn();

  const first = render(<RemoteSlot remote="mf_calls" module="CallLayer" quiet onFailed={failed} />);
  await waitFor(() => expect(failed).toHaveBeenCalledTimes(1));
  expect(first.container).toBeEmptyDOMElement();
  first.unmount();

  // The next call: the overlay mounts again and loads the remote, rather than showing the cached failure.
  render(<RemoteSlot remote="mf_calls" module="CallLayer" quiet onFailed={failed} />);
  expect(await screen.findByText('Incoming call')).toBeInTheDocument();
  expect(failed).toHaveBeenCalledTimes(1);
});
