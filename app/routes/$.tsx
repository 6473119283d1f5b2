import { NotFound } from '~/components/not-found.tsx';

/** Every path no other route claims (docs/screens.md: '404 Page Not Found'). */
export async function loader() {
  throw new Response('Not Found', { status: 404 });
}

export function ErrorBoundary() {
  return <NotFound />;
}

export default function CatchAll() {
  return <NotFound />;
}
