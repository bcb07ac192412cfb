let context: AudioContext | null = null;

/**
 * The notification sound: two short tones made on the spot (no file to fetch). Browsers refuse audio before the
 * first interaction with the page; that failure is only logged (spec §8).
 */
export function playNotificationSound(): void {
  try {
    context ??= new AudioContext();
    // Made before the person's first click or key (a reloaded tab), it starts suspended and stays so unless asked:
    // asked at every sound, it plays once the page has been used, rather than never. A sound asked for while it is
    // suspended is not kept: at the first click, several would play at once.
    if (context.state !== 'running') {
      void context.resume().catch(() => undefined);
      return;
    }
    const now = context.currentTime;
    for (const [offset, frequency] of [
      [0, 880],
      [0.12, 1320],
    ] as const) {
      const oscillator = context.createOscillator();
      const gain = context.createGain();
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, now + offset);
      gain.gain.exponentialRampToValueAtTime(0.15, now + offset + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + offset + 0.18);
      oscillator.connect(gain).connect(context.destination);
      oscillator.start(now + offset);
      oscillator.stop(now + offset + 0.2);
    }
  } catch (error) {
    console.info('notification sound not played', error);
  }
}
