import { stopVoicePlayback, useVoicePlayback } from './voicePlayback';
import { messageGone } from '../deletedMessages';

// jsdom has media elements without playback: play and pause only flip `paused` and say so, as a browser does.
beforeAll(() => {
  jest.spyOn(HTMLMediaElement.prototype, 'paused', 'get').mockImplementation(function (this: HTMLMediaElement & { playingNow?: boolean }) {
    return !this.playingNow;
  });
  jest.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (this: HTMLMediaElement & { playingNow?: boolean }) {
    this.playingNow = true;
    this.dispatchEvent(new Event('play'));
    return Promise.resolve();
  });
  jest.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(function (this: HTMLMediaElement & { playingNow?: boolean }) {
    if (this.playingNow) this.dispatchEvent(new Event('pause'));
    this.playingNow = false;
  });
  jest.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => undefined);
});

afterEach(() => stopVoicePlayback());

test('one sound at a time: playing another message stops the first, and pausing keeps the place', () => {
  const playback = () => useVoicePlayback.getState();
  playback().toggle(1, 'http://files/one.webm');
  expect(playback()).toMatchObject({ current: 1, playing: true });
  playback().toggle(2, 'http://files/two.webm');
  expect(playback()).toMatchObject({ current: 2, playing: true, positionMs: 0 });
  const plays = jest.mocked(HTMLMediaElement.prototype.play).mock.instances;
  expect(new Set(plays).size).toBe(1); // the same element, with another source
  expect((plays.at(-1) as unknown as HTMLAudioElement).src).toBe('http://files/two.webm');

  playback().seek(2, 'http://files/two.webm', 1500);
  playback().toggle(2, 'http://files/two.webm');
  expect(playback()).toMatchObject({ current: 2, playing: false, positionMs: 1500 });
  stopVoicePlayback();
  expect(playback()).toMatchObject({ current: null, playing: false, positionMs: 0 });
});

test('moving the bar of a message not playing loads it there, paused', () => {
  useVoicePlayback.getState().seek(3, 'http://files/three.webm', 2000);
  expect(useVoicePlayback.getState()).toMatchObject({ current: 3, playing: false, positionMs: 2000 });
});

test('a voice message deleted while it plays stops; another deletion leaves it playing', () => {
  useVoicePlayback.getState().toggle(4, 'http://files/four.webm');
  messageGone(7, 5);
  expect(useVoicePlayback.getState()).toMatchObject({ current: 4, playing: true });
  messageGone(7, 4);
  expect(useVoicePlayback.getState()).toMatchObject({ current: null, playing: false });
});
