import { Button, Flex, Heading } from '@radix-ui/themes';
import { Link } from '@remix-run/react';

/**
 * The title row of a panel a page opens from its URL (`?details=`, `?edit=`,
 * `?new=1`): an h3 (the page's own title is the h2) and Close, a link back to
 * the page without the panel, so it works without JavaScript and keeps the
 * scroll position.
 */
export function PanelHeader({ title, closeHref, closeLabel }: { title: string; closeHref: string; closeLabel: string }) {
  return (
    <Flex justify="between" align="center" gap="3" mb="3">
      <Heading as="h3" size="4">
        {title}
      </Heading>
      <Button asChild variant="ghost" color="gray" size="1">
        <Link to={closeHref} preventScrollReset>
          {closeLabel}
        </Link>
      </Button>
    </Flex>
  );
}
