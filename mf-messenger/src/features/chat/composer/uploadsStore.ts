import { create } from 'zustand';
import {
  ApiError,
  errorText,
  i18n,
  sendMessage,
  uploadFile,
  uploadLimitMb,
  useAuthStore,
  useNotificationsStore,
  type MessageMeta,
  type MessageType,
} from '@messenger/shared';
import { useChatUiStore } from '../chatUiStore';

export interface Upload {
  id: number;
  chatId: number;
  name: string;
  /** 0…1 */
  progress: number;
  cancel: () => void;
  /** Why the upload failed; the file is kept (a voice message could not be recorded again) until retried or discarded. */
  failed?: string;
  retry?: () => void;
}

/** Picture types shown inline; anything else (SVG included) travels as a document. */
const INLINE_IMAGES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

export function messageTypeFor(mime: string): Exclude<MessageType, 'call' | 'text'> {
  if (INLINE_IMAGES.includes(mime)) return 'image';
  if (mime.startsWith('video/')) return 'video';
  if (mime.startsWith('audio/')) return 'audio';
  return 'document';
}

/** A picture's size, so its bubble has the right height before it loads (no jumps in the list). */
async function imageSize(file: File): Promise<MessageMeta> {
  try {
    const bitmap = await createImageBitmap(file);
    const meta = { width: bitmap.width, height: bitmap.height };
    bitmap.close();
    return meta;
  } catch {
    return {};
  }
}

let nextId = 1;

interface UploadsState {
  uploads: Upload[];
  /**
   * Uploads a file with progress, then sends it to the chat — as a reply to the message being replied to when it
   * started (the reply bar is then closed). A failed upload stays in the list with Try again and Cancel.
   */
  start(chatId: number, file: File, extra?: { meta?: MessageMeta; type?: Exclude<MessageType, 'call' | 'text'> }): Promise<void>;
}

/** Files on their way up, per chat; the composer shows each with a progress bar and a cancel button. */
export const useUploadsStore = create<UploadsState>((set, get) => {
  // Signed out (here or in another tab): the person's files go with them — a failed one kept for Try again must
  // never be sent by whoever signs in next, and those on their way are stopped.
  useAuthStore.subscribe((state, previous) => {
    if (!previous.user || state.user) return;
    for (const upload of get().uploads) if (!upload.failed) upload.cancel();
    set({ uploads: [] });
  });
  return {
  uploads: [],
  start: async (chatId, file, extra = {}) => {
    const role = useAuthStore.getState().user?.role ?? 0;
    const id = nextId++;
    const replyTo = useChatUiStore.getState().replyTo[chatId];
    if (replyTo) useChatUiStore.getState().setReplyTo(chatId, undefined);
    const update = (change: Partial<Upload>) =>
      set((state) => ({ uploads: state.uploads.map((upload) => (upload.id === id ? { ...upload, ...change } : upload)) }));
    const remove = () => set((state) => ({ uploads: state.uploads.filter((upload) => upload.id !== id) }));

    const attempt = async (): Promise<void> => {
      const controller = new AbortController();
      update({ progress: 0, failed: undefined, retry: undefined, cancel: () => controller.abort() });
      try {
        const type = extra.type ?? messageTypeFor(file.type);
        const meta = extra.meta ?? (type === 'image' ? await imageSize(file) : {});
        const stored = await uploadFile(file, role, { signal: controller.signal, onProgress: (progress) => update({ progress }) });
        // Cancelled as the upload ended: the person said not to send it, so it is not sent.
        if (controller.signal.aborted) return remove();
        sendMessage({ chatId, type, file: stored, meta, replyTo });
        remove();
      } catch (error) {
        if ((error as Error).name === 'AbortError') return remove();
        if (error instanceof ApiError && error.status === 413) {
          // Too large: trying again cannot help.
          useNotificationsStore.getState().push({ kind: 'error', text: i18n.t('messenger:upload.sizeError', { maxSize: uploadLimitMb(role) }) });
          return remove();
        }
        update({ failed: errorText(error, 'messenger:upload.generalError'), retry: () => void attempt(), cancel: remove });
      }
    };
    set((state) => ({ uploads: [...state.uploads, { id, chatId, name: file.name, progress: 0, cancel: () => undefined }] }));
    await attempt();
  },
  };
});
