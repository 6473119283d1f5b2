import * as RadixToast from '@radix-ui/react-toast';
import { Cross2Icon } from '@radix-ui/react-icons';
import { createContext, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRefusalText } from '~/components/refusal-text.ts';
import { createToast, type ToastInput, type ToastMessage } from '~/utils/toast.ts';

/**
 * docs/screens.md: one toast at a time, auto-dismissed after 5000 ms, swipe right
 * (50 px) to dismiss, F8 focuses the viewport labelled 'Notifications ({hotkey})'.
 */
const TOAST_DURATION_MS = 5_000;

const ToastContext = createContext<(input: ToastInput) => void>(() => {});

export function useToast() {
  return useContext(ToastContext);
}

export function ToastProvider({ initial, children }: { initial: ToastMessage | null; children: React.ReactNode }) {
  const { t } = useTranslation();
  const refusalText = useRefusalText();
  const [current, setCurrent] = useState<ToastMessage | null>(initial);
  const [open, setOpen] = useState(Boolean(initial));

  // A toast flashed by the server after a redirect replaces the one showing.
  useEffect(() => {
    if (initial) {
      setCurrent(initial);
      setOpen(true);
    }
  }, [initial]);

  const show = useCallback((input: ToastInput) => {
    setCurrent(createToast(input));
    setOpen(true);
  }, []);
  const value = useMemo(() => show, [show]);
  // A param may be a refusal as readApiError encodes it (`{ reason: problem.message }`): shown in the reader's language.
  const params = current?.params && Object.fromEntries(Object.entries(current.params).map(([name, param]) => [name, typeof param === 'string' ? refusalText(param) : param]));

  return (
    <ToastContext.Provider value={value}>
      <RadixToast.Provider duration={TOAST_DURATION_MS} swipeDirection="right" swipeThreshold={50} label={t('toast.label')}>
        {children}
        {current ? (
          <RadixToast.Root key={current.id} open={open} onOpenChange={setOpen} className="toast" data-variant={current.variant ?? 'default'}>
            <RadixToast.Title className="toast-title">{t(current.title, params)}</RadixToast.Title>
            {current.description ? <RadixToast.Description className="toast-description">{t(current.description, params)}</RadixToast.Description> : null}
            <RadixToast.Close className="toast-close" aria-label={t('toast.close')}>
              <Cross2Icon />
            </RadixToast.Close>
          </RadixToast.Root>
        ) : null}
        <RadixToast.Viewport className="toast-viewport" hotkey={['F8']} />
      </RadixToast.Provider>
    </ToastContext.Provider>
  );
}
