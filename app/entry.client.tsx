import { RemixBrowser } from '@remix-run/react';
import i18next from 'i18next';
import { startTransition, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { getInitialNamespaces } from 'remix-i18next/client';
import { i18nConfig } from './i18n.ts';

async function hydrate() {
  await i18next.use(initReactI18next).init({
    ...i18nConfig,
    // The server rendered in this language; hydrate in the same one.
    lng: document.documentElement.lang || i18nConfig.fallbackLng,
    ns: getInitialNamespaces(),
  });
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

if (window.requestIdleCallback) window.requestIdleCallback(hydrate);
else window.setTimeout(hydrate, 1);
