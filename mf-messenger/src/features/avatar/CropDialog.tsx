import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import Cropper from 'cropperjs';
import 'cropperjs/dist/cropper.css';
import { Modal, errorText, uploadFile, useAuthStore, useSubmit } from '@messenger/shared';

/** Spec §9 cropper: square, crop area 80 %, container at least 200×100, wheel zoom 0.1, throttled redraws. */
const CROPPER_OPTIONS: Cropper.Options = {
  aspectRatio: 1,
  viewMode: 1,
  autoCropArea: 0.8,
  minContainerWidth: 200,
  minContainerHeight: 100,
  wheelZoomRatio: 0.1,
  // cropperjs would read the picked file again by XHR (any picture but a data: URL) for a JPEG's EXIF orientation:
  // the CSP's connect-src refuses that blob: URL, and the browser already shows and draws a picture turned.
  checkOrientation: false,
};
/** Side of the stored square picture. */
const OUTPUT_SIZE = 512;

export interface CropDialogProps {
  /** An object URL of the picked image. */
  source: string;
  onClose: () => void;
  /** Called with the stored picture's path once it is uploaded. */
  onSaved: (path: string) => void | Promise<void>;
}

/** Crops the picked image square; Save uploads it as a 512×512 JPEG. A chunk of its own (see AvatarPicker). */
export function CropDialog({ source, onClose, onSaved }: CropDialogProps) {
  const { t } = useTranslation('messenger');
  const image = useRef<HTMLImageElement>(null);
  const cropper = useRef<Cropper | null>(null);
  const form = useSubmit((failure) => errorText(failure, 'messenger:upload.generalError'), 'toast');

  useEffect(() => {
    if (!image.current) return;
    cropper.current = new Cropper(image.current, CROPPER_OPTIONS);
    return () => {
      cropper.current?.destroy();
      cropper.current = null;
    };
  }, [source]);

  // Run from the click, not wrapped by `form.handler` during render: it reads the cropper's ref.
  const save = async () => {
    const canvas = cropper.current?.getCroppedCanvas({ width: OUTPUT_SIZE, height: OUTPUT_SIZE, imageSmoothingQuality: 'high' });
    if (!canvas) return;
    const blob = await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((result) => (result ? resolve(result) : reject(new Error('crop failed'))), 'image/jpeg', 0.9),
    );
    const role = useAuthStore.getState().user?.role ?? 0;
    const stored = await uploadFile(new File([blob], 'avatar.jpg', { type: 'image/jpeg' }), role);
    await onSaved(stored.path);
    onClose();
  };

  return (
    <Modal title={t('avatar.cropTitle')} onClose={onClose}>
      <div className="msg-crop-area">
        <img ref={image} src={source} alt={t('avatar.cropImage')} />
      </div>
      <div className="ui-modal-actions">
        <button type="button" className="ui-button" onClick={onClose}>
          {t('common:actions.cancel')}
        </button>
        <button type="button" className="ui-button ui-button-primary" onClick={() => void form.run(save)} disabled={form.busy}>
          {t('common:actions.save')}
        </button>
      </div>
    </Modal>
  );
}
