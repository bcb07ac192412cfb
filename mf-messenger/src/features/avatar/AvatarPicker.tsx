import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { config } from '@messenger/shared';
import type { CropDialog, CropDialogProps } from './CropDialog';

interface CropDialogModule {
  CropDialog: typeof CropDialog;
}

let cropDialogLoading: Promise<CropDialogModule> | undefined;

/**
 * The cropper (cropperjs and its styles, about 13 KB compressed) is fetched when someone sets out to change a
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
  onSaved: CropDialogProps['onSaved'];
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
  // Counts picks: a pick still waiting for the cropper when another one is made, or when the picker goes (a panel
  // closed), is dropped — before it makes an object URL that nothing would revoke.
  const picks = useRef(0);
  useEffect(
    () => () => {
      picks.current += 1;
    },
    [],
  );

  const choose = async (file: File | undefined) => {
    const pick = ++picks.current;
    setHint(null);
    if (!file) return;
    if (!file.type.startsWith('image/') || file.size > config.avatarMaxBytes) {
      setHint(t('avatar.ignored', { maxSize: config.avatarMaxBytes / 1024 / 1024 }));
      return;
    }
    try {
      const { CropDialog } = await loadCropDialog();
      if (pick === picks.current) setEditing({ source: URL.createObjectURL(file), CropDialog });
    } catch {
      if (pick === picks.current) setHint(t('avatar.editorFailed'));
    }
  };

  // The picked picture's object URL lives as long as its dialog (closed, saved, or the picker gone).
  useEffect(() => (editing ? () => URL.revokeObjectURL(editing.source) : undefined), [editing]);

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
      {editing && <editing.CropDialog source={editing.source} onClose={() => setEditing(null)} onSaved={onSaved} />}
    </>
  );
}
