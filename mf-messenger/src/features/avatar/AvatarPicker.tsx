import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { config } from '@messenger/shared';
import type { CropDialog } from './CropDialog';

interface CropDialogModule {
  CropDialog: typeof CropDialog;
}

let cropDialogLoading: Promise<CropDialogModule> | undefined;

/**
 * The cropper (cropperjs and its styles, about 15 KB compressed) is fetched when someone sets out to change a
 * picture, not with the chat or the profile that show the button (issue 13). Asked for on the button's click, so
 * it is usually there by the time a file is picked; a failed fetch is asked for again next time.
 */
function loadCropDialog(): Promise<CropDialogModule> {
  cropDialogLoading ??= import(/* webpackChunkName: "avatar-cropper" */ './CropDialog').catch((error: unknown) => {
    cropDialogLoading = undefined;
    throw error;
  });
  return cropDialogLoading;
}

interface AvatarPickerProps {
  /** Called with the stored picture's path once it is uploaded. */
  onSaved: (path: string) => void | Promise<void>;
  label: string;
}

/**
 * Change a picture (spec §4 avatar upload): pick an image (at most 4 MB; anything else is ignored), crop it
 * square, and Save uploads it; Cancel closes.
 */
export function AvatarPicker({ onSaved, label }: AvatarPickerProps) {
  const { t } = useTranslation('messenger');
  const picker = useRef<HTMLInputElement>(null);
  const [editing, setEditing] = useState<{ source: string; CropDialog: typeof CropDialog } | null>(null);
  const [hint, setHint] = useState<string | null>(null);

  const choose = async (file: File | undefined) => {
    setHint(null);
    if (!file) return;
    if (!file.type.startsWith('image/') || file.size > config.avatarMaxBytes) {
      setHint(t('avatar.ignored', { maxSize: config.avatarMaxBytes / 1024 / 1024 }));
      return;
    }
    try {
      const { CropDialog } = await loadCropDialog();
      setEditing({ source: URL.createObjectURL(file), CropDialog });
    } catch {
      setHint(t('avatar.editorFailed'));
    }
  };

  const close = () => {
    if (editing) URL.revokeObjectURL(editing.source);
    setEditing(null);
  };

  return (
    <>
      <input
        ref={picker}
        type="file"
        accept="image/*"
        hidden
        aria-hidden="true"
        tabIndex={-1}
        onChange={(event) => {
          void choose(event.target.files?.[0]);
          event.target.value = '';
        }}
      />
      <button
        type="button"
        className="ui-button"
        onClick={() => {
          loadCropDialog().catch(() => undefined);
          picker.current?.click();
        }}
      >
        {label}
      </button>
      {hint && (
        <p className="ui-warning" role="alert">
          {hint}
        </p>
      )}
      {editing && <editing.CropDialog source={editing.source} onClose={close} onSaved={onSaved} />}
    </>
  );
}
