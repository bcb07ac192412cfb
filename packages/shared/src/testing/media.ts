// Stand-ins for the browser's media objects, which jsdom lacks (device and call tests).

/** A track: its kind, and whether it was stopped (devices let go). */
export class FakeMediaTrack {
  stopped = false;
  constructor(readonly kind: string) {}
  stop(): void {
    this.stopped = true;
  }
}

/** A stream of tracks, with the accessors the app uses. */
export class FakeMediaStream {
  readonly id = `stream-${Math.random().toString(36).slice(2)}`;
  constructor(private readonly tracks: FakeMediaTrack[] = []) {}
  getAudioTracks(): FakeMediaTrack[] {
    return this.tracks.filter((track) => track.kind === 'audio');
  }
  getVideoTracks(): FakeMediaTrack[] {
    return this.tracks.filter((track) => track.kind === 'video');
  }
  getTracks(): FakeMediaTrack[] {
    return this.tracks;
  }
  addTrack(track: FakeMediaTrack): void {
    this.tracks.push(track);
  }
}
