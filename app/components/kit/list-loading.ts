import { useLocation, useNavigation } from '@remix-run/react';

/** True while a GET navigation to this same page (search, filter, tab, next page) loads: the lists show their placeholders then. */
export function useListLoading(): boolean {
  const navigation = useNavigation();
  const location = useLocation();
  return navigation.state === 'loading' && navigation.location.pathname === location.pathname && (!navigation.formMethod || navigation.formMethod.toUpperCase() === 'GET');
}
