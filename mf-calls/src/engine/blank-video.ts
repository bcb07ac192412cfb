/**
 * A blank video track (a black canvas at 1 frame a second) sent while the camera and screen are off, so the
 * video m-line keeps a track and turning the camera back on needs no renegotiation. At one frame a second the
 * others show my avatar (spec §9: frame rate ≤ 1).
 */
export function blankVideoTrack(): MediaStreamTrack | null {
  if (typeof document === 'undefined') return null;
  const canvas = document.createElement('canvas');
  canvas.width = 320;
  canvas.height = 240;
  const context = canvas.getContext('2d');
  if (!context || typeof canvas.captureStream !== 'function') return null;
  const paint = () => {
    context.fillStyle = '#000';
    context.fillRect(0, 0, canvas.width, canvas.height);
  };
  paint();
  const track = canvas.captureStream(1).getVideoTracks()[0] ?? null;
  // A canvas stream only produces frames when painted.
  const timer = setInterval(paint, 1000);
  track?.addEventListener('ended', () => clearInterval(timer));
  const stop = track?.stop.bind(track);
  if (track && stop) {
    track.stop = () => {
      clearInterval(timer);
      stop();
    };
  }
  return track;
}
