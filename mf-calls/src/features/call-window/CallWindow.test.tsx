import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { initTestI18n } from '@messenger/shared/testing';
import '../../i18n';
import { useRinging } from '../sounds/ringing';
import { CallWindow } from './CallWindow';
import type { CallActions, CallViewState, RemoteParticipant } from './types';

jest.mock('../sounds/ringing', () => ({ useRinging: jest.fn() }));

// jsdom has neither PointerEvent nor MediaStream, and its media elements take no srcObject.
class TestPointerEvent extends MouseEvent {
  pointerId: number;
  constructor(type: string, init: PointerEventInit = {}) {
    super(type, init);
    this.pointerId = init.pointerId ?? 1;
  }
}

beforeAll(async () => {
  await initTestI18n();
  if (!('PointerEvent' in window)) Object.assign(window, { PointerEvent: TestPointerEvent });
  Object.defineProperty(HTMLMediaElement.prototype, 'srcObject', {
    configurable: true,
    get(this: { attached?: MediaStream | null }) {
      return this.attached ?? null;
    },
    set(this: { attached?: MediaStream | null }, value: MediaStream | null) {
      this.attached = value;
    },
  });
});

afterEach(() => {
  jest.useRealTimers();
});

const fakeStream = (video: boolean) =>
  ({ id: Math.random().toString(36), getVideoTracks: () => (video ? [{ kind: 'video' }] : []), getAudioTracks: () => [{ kind: 'audio' }] }) as unknown as MediaStream;

const remote = (overrides: Partial<RemoteParticipant> = {}): RemoteParticipant => ({
  userId: 2,
  name: 'Anna',
  avatar: null,
  stream: fakeStream(true),
  frameRate: 24,
  audioLevel: 0,
  reconnecting: false,
  videoOff: false,
  ...overrides,
});

const state = (overrides: Partial<CallViewState> = {}): CallViewState => ({
  title: 'Design team',
  chatType: 'group',
  phase: 'active',
  connectedAt: null,
  participantCount: 3,
  remotes: [remote(), remote({ userId: 3, name: 'Boris' })],
  localStream: fakeStream(true),
  localAudioLevel: 42,
  muted: false,
  cameraOn: true,
  screenSharing: false,
  recorded: false,
  canShareScreen: true,
  ...overrides,
});

const actions = (): jest.Mocked<CallActions> => ({
  toggleMute: jest.fn(),
  toggleCamera: jest.fn(),
  toggleScreenShare: jest.fn(),
  hangUp: jest.fn(),
});

const windowRect = (dialog: HTMLElement) => ({
  x: parseFloat(dialog.style.left),
  y: parseFloat(dialog.style.top),
  width: parseFloat(dialog.style.width),
  height: parseFloat(dialog.style.height),
});


test('is a non-modal dialog named by the call title, showing the participant count', () => {
  const { rerender } = render(<CallWindow state={state()} actions={actions()} />);
  const dialog = screen.getByRole('dialog', { name: 'Design team' });
  expect(dialog).toHaveAttribute('aria-modal', 'false');
  expect(within(dialog).getByText('3 participants')).toBeInTheDocument();
  rerender(<CallWindow state={state({ participantCount: 1, remotes: [] })} actions={actions()} />);
  expect(within(dialog).getByText('1 participant')).toBeInTheDocument();
});

test('says the call is recorded, to everyone in it, once the server records it', () => {
  const { rerender } = render(<CallWindow state={state()} actions={actions()} />);
  const header = within(screen.getByRole('dialog', { name: 'Design team' })).getByRole('banner');
  expect(within(header).queryByText('Recording')).not.toBeInTheDocument();
  const regions = within(header).getAllByRole('status');
  rerender(<CallWindow state={state({ recorded: true })} actions={actions()} />);
  // The same live region as before, now with the words, so that a screen reader announces them.
  expect(within(header).getAllByRole('status')).toEqual(regions);
  expect(regions.find((region) => region.textContent === 'Recording')).toBeVisible();
});

test('opens centred at the minimum size of 400×400', () => {
  render(<CallWindow state={state()} actions={actions()} />);
  expect(windowRect(screen.getByRole('dialog'))).toEqual({
    x: (window.innerWidth - 400) / 2,
    y: (window.innerHeight - 400) / 2,
    width: 400,
    height: 400,
  });
});

test('counts the call time from connectedAt as mm:ss, then hh:mm:ss after an hour', () => {
  jest.useFakeTimers({ now: new Date('2026-05-01T10:00:00Z') });
  const now = Date.now();
  const { rerender } = render(<CallWindow state={state({ connectedAt: now - 65_000 })} actions={actions()} />);
  expect(screen.getByRole('timer')).toHaveTextContent('01:05');
  expect(screen.getByRole('timer')).toHaveAccessibleName('Call duration 01:05');
  act(() => jest.advanceTimersByTime(1_000));
  expect(screen.getByRole('timer')).toHaveTextContent('01:06');

  rerender(<CallWindow state={state({ connectedAt: Date.now() - 3_661_000 })} actions={actions()} />);
  expect(screen.getByRole('timer')).toHaveTextContent('01:01:01');
});

test('shows what the call is doing until someone is connected', () => {
  const { rerender } = render(<CallWindow state={state({ phase: 'ringing', remotes: [] })} actions={actions()} />);
  expect(screen.queryByRole('timer')).not.toBeInTheDocument();
  expect(screen.getByText('Calling…')).toBeInTheDocument();
  rerender(<CallWindow state={state({ phase: 'connecting' })} actions={actions()} />);
  expect(screen.getByText('Connecting…')).toBeInTheDocument();
  rerender(<CallWindow state={state({ phase: 'reconnecting' })} actions={actions()} />);
  expect(screen.getByText('Reconnecting…')).toBeInTheDocument();
  // A dropped connection mid-call keeps the timer and says so.
  rerender(<CallWindow state={state({ phase: 'reconnecting', connectedAt: Date.now() })} actions={actions()} />);
  expect(screen.getByRole('timer')).toBeInTheDocument();
  expect(screen.getByText('Reconnecting…')).toBeInTheDocument();
});

test('plays the ring-back only while ringing', () => {
  const ringing = jest.mocked(useRinging);
  const { rerender } = render(<CallWindow state={state({ phase: 'ringing', remotes: [] })} actions={actions()} />);
  expect(ringing).toHaveBeenLastCalledWith('outgoing', true);
  rerender(<CallWindow state={state({ phase: 'active', connectedAt: Date.now() })} actions={actions()} />);
  expect(ringing).toHaveBeenLastCalledWith('outgoing', false);
});

test('shows a remote at 1 frame a second or less, or without video, as their avatar', () => {
  const { rerender } = render(<CallWindow state={state({ remotes: [remote({ frameRate: 1 })] })} actions={actions()} />);
  const tile = () => screen.getByTestId('calls-tile-2');
  expect(tile().querySelector('video')).not.toBeVisible();
  expect(within(tile()).getByText('A')).toBeInTheDocument(); // the avatar's letter
  expect(within(tile()).getByText('Anna')).toBeInTheDocument();

  rerender(<CallWindow state={state({ remotes: [remote({ frameRate: 25 })] })} actions={actions()} />);
  expect(tile().querySelector('video')).toBeVisible();
  expect(within(tile()).queryByText('A')).not.toBeInTheDocument();

  rerender(<CallWindow state={state({ remotes: [remote({ frameRate: 25, stream: fakeStream(false) })] })} actions={actions()} />);
  expect(tile().querySelector('video')).not.toBeVisible();
  expect(within(tile()).getByText('A')).toBeInTheDocument();
});

test('my preview is a tile of the grid with two others or more, and floats only over a single other tile', () => {
  const { rerender } = render(<CallWindow state={state()} actions={actions()} />);
  const list = screen.getByRole('list', { name: 'Participants' });
  expect(within(list).getByRole('figure', { name: 'You' })).toBeInTheDocument();
  expect(within(list).getAllByRole('listitem')).toHaveLength(3);

  rerender(<CallWindow state={state({ remotes: [remote()] })} actions={actions()} />);
  expect(within(screen.getByRole('list', { name: 'Participants' })).queryByRole('figure')).not.toBeInTheDocument();
  expect(screen.getByRole('figure', { name: 'You' })).toHaveClass('calls-self-corner');
});

test('a remote whose camera is off shows as their avatar steadily, whatever frame rate the blank picture reaches', () => {
  const { rerender } = render(<CallWindow state={state({ remotes: [remote({ videoOff: true, frameRate: 0.9 })] })} actions={actions()} />);
  const tile = () => screen.getByTestId('calls-tile-2');
  for (const frameRate of [1.1, 0.95, 1.4, 2, 0.8]) {
    rerender(<CallWindow state={state({ remotes: [remote({ videoOff: true, frameRate })] })} actions={actions()} />);
    expect(tile().querySelector('video')).not.toBeVisible();
    expect(within(tile()).getByText('A')).toBeInTheDocument();
  }
  rerender(<CallWindow state={state({ remotes: [remote({ videoOff: false, frameRate: 25 })] })} actions={actions()} />);
  expect(tile().querySelector('video')).toBeVisible();
});

test('a remote whose connection dropped keeps a tile: their avatar and "Reconnecting…"', () => {
  const { rerender } = render(<CallWindow state={state({ remotes: [remote({ reconnecting: true, stream: null, frameRate: 0 })] })} actions={actions()} />);
  const tile = () => screen.getByTestId('calls-tile-2');
  expect(within(tile()).getByRole('status')).toHaveTextContent('Reconnecting…');
  expect(within(tile()).getByText('A')).toBeInTheDocument();
  expect(within(tile()).getByText('Anna')).toBeInTheDocument();

  rerender(<CallWindow state={state({ remotes: [remote()] })} actions={actions()} />);
  expect(within(tile()).queryByRole('status')).not.toBeInTheDocument();
  expect(tile().querySelector('video')).toBeVisible();
});

test("plays every remote's sound through an unmuted audio element, and my preview muted and mirrored", () => {
  const anna = remote();
  const local = fakeStream(true);
  render(<CallWindow state={state({ remotes: [anna], localStream: local })} actions={actions()} />);
  const tile = screen.getByTestId('calls-tile-2');
  const audio = tile.querySelector('audio')!;
  expect(audio.srcObject).toBe(anna.stream);
  expect(audio.muted).toBe(false);
  expect(audio).toHaveAttribute('autoplay');
  // The tile's video is muted so the sound is not played twice.
  expect(tile.querySelector('video')!.muted).toBe(true);

  const self = screen.getByRole('figure', { name: 'You' });
  const preview = self.querySelector('video')!;
  expect(preview.srcObject).toBe(local);
  expect(preview.muted).toBe(true);
  expect(preview).toHaveClass('calls-mirrored');
});

test('shows my microphone level as a meter from 0 to 100', () => {
  render(<CallWindow state={state({ localAudioLevel: 42.4 })} actions={actions()} />);
  const meter = screen.getByRole('meter', { name: 'Microphone level' });
  expect(meter).toHaveAttribute('aria-valuenow', '42');
  expect(meter).toHaveAttribute('aria-valuemin', '0');
  expect(meter).toHaveAttribute('aria-valuemax', '100');
});

test('the controls call the actions and say whether they are on', async () => {
  const user = userEvent.setup();
  const calls = actions();
  const { rerender } = render(<CallWindow state={state()} actions={calls} />);
  const mute = screen.getByRole('button', { name: 'Mute microphone' });
  const camera = screen.getByRole('button', { name: 'Camera' });
  const share = screen.getByRole('button', { name: 'Share screen' });
  expect(mute).toHaveAttribute('aria-pressed', 'false');
  expect(camera).toHaveAttribute('aria-pressed', 'true');
  expect(share).toHaveAttribute('aria-pressed', 'false');

  await user.click(mute);
  await user.click(camera);
  await user.click(share);
  await user.click(screen.getByRole('button', { name: 'Hang up' }));
  expect(calls.toggleMute).toHaveBeenCalledTimes(1);
  expect(calls.toggleCamera).toHaveBeenCalledTimes(1);
  expect(calls.toggleScreenShare).toHaveBeenCalledTimes(1);
  expect(calls.hangUp).toHaveBeenCalledTimes(1);

  rerender(<CallWindow state={state({ muted: true, cameraOn: false, screenSharing: true })} actions={calls} />);
  expect(mute).toHaveAttribute('aria-pressed', 'true');
  expect(camera).toHaveAttribute('aria-pressed', 'false');
  expect(share).toHaveAttribute('aria-pressed', 'true');
});

test('offers no screen sharing where it is not allowed', () => {
  render(<CallWindow state={state({ canShareScreen: false })} actions={actions()} />);
  expect(screen.queryByRole('button', { name: 'Share screen' })).not.toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Mute microphone' })).toBeInTheDocument();
});

test('resizes with Shift+arrow keys on a focused handle, never below 400×400', async () => {
  const user = userEvent.setup();
  render(<CallWindow state={state()} actions={actions()} />);
  const dialog = screen.getByRole('dialog');
  const right = screen.getByRole('button', { name: 'Resize from the right edge' });
  const bottom = screen.getByRole('button', { name: 'Resize from the bottom edge' });
  const corner = screen.getByRole('button', { name: 'Resize from the corner' });
  expect(right).toHaveAccessibleDescription('Hold Shift and press the arrow keys to resize the window.');

  right.focus();
  await user.keyboard('{Shift>}{ArrowLeft}{/Shift}');
  expect(windowRect(dialog)).toMatchObject({ width: 400, height: 400 });
  await user.keyboard('{Shift>}{ArrowRight}{ArrowRight}{ArrowDown}{/Shift}');
  expect(windowRect(dialog)).toMatchObject({ width: 440, height: 400 });
  await user.keyboard('{ArrowRight}'); // without Shift: nothing
  expect(windowRect(dialog)).toMatchObject({ width: 440 });
  expect(screen.getByText('Window size 440 × 400')).toBeInTheDocument();

  bottom.focus();
  await user.keyboard('{Shift>}{ArrowDown}{ArrowRight}{/Shift}');
  expect(windowRect(dialog)).toMatchObject({ width: 440, height: 420 });

  corner.focus();
  await user.keyboard('{Shift>}{ArrowLeft}{ArrowLeft}{ArrowLeft}{ArrowUp}{ArrowUp}{/Shift}');
  expect(windowRect(dialog)).toMatchObject({ width: 400, height: 400 });
});

test('resizes by dragging a handle, never below 400×400 nor past the viewport', () => {
  render(<CallWindow state={state()} actions={actions()} />);
  const dialog = screen.getByRole('dialog');
  const start = windowRect(dialog);
  const corner = screen.getByRole('button', { name: 'Resize from the corner' });

  fireEvent.pointerDown(corner, { button: 0, clientX: 500, clientY: 500 });
  fireEvent.pointerMove(window, { clientX: 300, clientY: 250 });
  expect(windowRect(dialog)).toEqual({ ...start, width: 400, height: 400 });
  fireEvent.pointerMove(window, { clientX: 600, clientY: 550 });
  expect(windowRect(dialog)).toEqual({ ...start, width: 500, height: 450 });
  fireEvent.pointerMove(window, { clientX: 5_000, clientY: 5_000 });
  expect(windowRect(dialog)).toEqual({ ...start, width: window.innerWidth - start.x, height: window.innerHeight - start.y });
  fireEvent.pointerUp(window);
  fireEvent.pointerMove(window, { clientX: 0, clientY: 0 });
  expect(windowRect(dialog)).toMatchObject({ width: window.innerWidth - start.x });

  const right = screen.getByRole('button', { name: 'Resize from the right edge' });
  fireEvent.pointerDown(right, { button: 0, clientX: 900, clientY: 300 });
  fireEvent.pointerMove(window, { clientX: 100, clientY: 900 });
  fireEvent.pointerUp(window);
  expect(windowRect(dialog)).toMatchObject({ width: 400, height: window.innerHeight - start.y });
});

test('moves when its header is dragged, staying inside the viewport', () => {
  render(<CallWindow state={state()} actions={actions()} />);
  const dialog = screen.getByRole('dialog');
  const start = windowRect(dialog);
  const title = screen.getByRole('heading', { name: 'Design team' });

  fireEvent.pointerDown(title, { button: 0, clientX: 400, clientY: 200 });
  fireEvent.pointerMove(window, { clientX: 350, clientY: 230 });
  expect(windowRect(dialog)).toEqual({ ...start, x: start.x - 50, y: start.y + 30 });
  fireEvent.pointerMove(window, { clientX: -3_000, clientY: -3_000 });
  expect(windowRect(dialog)).toMatchObject({ x: 0, y: 0 });
  fireEvent.pointerMove(window, { clientX: 9_000, clientY: 9_000 });
  expect(windowRect(dialog)).toMatchObject({ x: window.innerWidth - 400, y: window.innerHeight - 400 });
  fireEvent.pointerUp(window);
});

test('the maximise button fills the viewport and back', async () => {
  const user = userEvent.setup();
  render(<CallWindow state={state()} actions={actions()} />);
  const dialog = screen.getByRole('dialog');
  const maximise = screen.getByRole('button', { name: 'Maximize window' });
  expect(maximise).toHaveAttribute('aria-pressed', 'false');

  await user.click(maximise);
  expect(maximise).toHaveAttribute('aria-pressed', 'true');
  expect(dialog).toHaveClass('calls-window-large');
  expect(dialog.style.width).toBe('');
  expect(screen.queryByRole('button', { name: 'Resize from the corner' })).not.toBeInTheDocument();

  await user.click(maximise);
  expect(dialog).not.toHaveClass('calls-window-large');
  expect(windowRect(dialog)).toMatchObject({ width: 400, height: 400 });
});

test('can start maximised', () => {
  render(<CallWindow state={state()} actions={actions()} initiallyMaximized />);
  expect(screen.getByRole('dialog')).toHaveClass('calls-window-large');
  expect(screen.getByRole('button', { name: 'Maximize window' })).toHaveAttribute('aria-pressed', 'true');
});

test('warns before leaving the page while it is open', () => {
  const leave = () => {
    const event = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(event);
    return event.defaultPrevented;
  };
  const { unmount } = render(<CallWindow state={state()} actions={actions()} />);
  expect(leave()).toBe(true);
  unmount();
  expect(leave()).toBe(false);
});
