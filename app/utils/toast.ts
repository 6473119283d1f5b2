/** A toast message; title and description are translation keys (with params) so one toast serves en and hr. */
export interface ToastMessage {
  id: string;
  title: string;
  description?: string;
  params?: Record<string, string | number>;
  variant?: 'default' | 'destructive';
}

export type ToastInput = Omit<ToastMessage, 'id'>;

export function createToast(input: ToastInput): ToastMessage {
  return { id: Math.random().toString(36).slice(2), variant: 'default', ...input };
}
