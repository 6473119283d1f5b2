import { Badge, Box, Button, Card, DataList, Flex, Heading, Progress, Text } from '@radix-ui/themes';
import { Link } from '@remix-run/react';
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom/server';
import { describe, expect, it } from 'vitest';
import { Fact, FactRows, flexClass, LightBadge, LightBox, LightButton, LightCard, LightHeading, LightText, LinkButton, Meter, Stack } from './light.tsx';

/** The markup with every tag's attributes, and the words of every class attribute, in order: Radix and the light kit order them differently. */
function normalised(element: ReactElement): string {
  const html = renderToStaticMarkup(<StaticRouter location="/">{element}</StaticRouter>);
  return html.replace(/<([a-z0-9]+)((?:\s+[a-z-]+(?:="[^"]*")?)*)\s*(\/?)>/g, (_, tag: string, attributes: string, selfClosing: string) => {
    const parts = [...attributes.matchAll(/([a-z-]+)(?:="([^"]*)")?/g)].map(([, name, value]) =>
      name === 'class' ? `class="${(value ?? '').split(/\s+/).sort().join(' ')}"` : value === undefined ? name : `${name}="${value}"`,
    );
    return `<${tag}${parts.length ? ' ' + parts.sort().join(' ') : ''}${selfClosing}>`;
  });
}

function same(light: ReactElement, radix: ReactElement) {
  const expected = normalised(radix);
  expect(normalised(light)).toBe(expected);
  return expected;
}

describe('the light kit writes what Radix Themes writes', () => {
  it('Stack is Flex, flexClass its class', () => {
    same(<Stack>x</Stack>, <Flex>x</Flex>);
    same(
      <Stack direction="column" gap="3" data-testid="s" role="group" aria-label="Period">
        x
      </Stack>,
      <Flex direction="column" gap="3" data-testid="s" role="group" aria-label="Period">
        x
      </Flex>,
    );
    same(
      <Stack justify="between" align="start" gap="2" wrap="wrap" py="1" mt="2" mb="3" className="extra" style={{ borderBottom: '1px solid red' }}>
        x
      </Stack>,
      <Flex justify="between" align="start" gap="2" wrap="wrap" py="1" mt="2" mb="3" className="extra" style={{ borderBottom: '1px solid red' }}>
        x
      </Flex>,
    );
    same(
      <Stack as="span" justify="end" direction="row-reverse">
        x
      </Stack>,
      <Flex as="span" justify="end" direction="row-reverse">
        x
      </Flex>,
    );
    const radixRow = renderToStaticMarkup(<Flex justify="between" align="center" gap="3" py="1" />);
    expect(radixRow).toBe(`<div class="${flexClass({ justify: 'between', align: 'center', gap: '3', py: '1' })}"></div>`);
  });

  it('LightBox is Box', () => {
    same(<LightBox>x</LightBox>, <Box>x</Box>);
    same(
      <LightBox className="sidebar-user" data-testid="b" style={{ minWidth: 0 }}>
        x
      </LightBox>,
      <Box className="sidebar-user" data-testid="b" style={{ minWidth: 0 }}>
        x
      </Box>,
    );
  });

  it('LightText is Text', () => {
    same(<LightText>x</LightText>, <Text>x</Text>);
    same(
      <LightText as="div" size="1" weight="bold" color="gray" className="sidebar-group-label">
        x
      </LightText>,
      <Text as="div" size="1" weight="bold" color="gray" className="sidebar-group-label">
        x
      </Text>,
    );
    same(
      <LightText as="p" size="6" weight="medium" truncate data-testid="t" data-value={12.5} title="hint">
        x
      </LightText>,
      <Text as="p" size="6" weight="medium" truncate data-testid="t" data-value={12.5} title="hint">
        x
      </Text>,
    );
  });

  it('LightHeading is Heading', () => {
    same(<LightHeading as="h2">x</LightHeading>, <Heading as="h2">x</Heading>);
    same(
      <LightHeading as="h3" size="4" mb="3">
        x
      </LightHeading>,
      <Heading as="h3" size="4" mb="3">
        x
      </Heading>,
    );
  });

  it('LightBadge is Badge', () => {
    same(<LightBadge>x</LightBadge>, <Badge>x</Badge>);
    same(
      <LightBadge color="red" variant="solid" radius="full" className="bell-badge" data-testid="n" title="why">
        x
      </LightBadge>,
      <Badge color="red" variant="solid" radius="full" className="bell-badge" data-testid="n" title="why">
        x
      </Badge>,
    );
    same(
      <LightBadge color="green" variant="outline" size="2">
        x
      </LightBadge>,
      <Badge color="green" variant="outline" size="2">
        x
      </Badge>,
    );
  });

  it('LightCard is Card', () => {
    same(<LightCard>x</LightCard>, <Card>x</Card>);
    same(
      <LightCard size="2" data-testid="c" data-invoice-number="R-1">
        x
      </LightCard>,
      <Card size="2" data-testid="c" data-invoice-number="R-1">
        x
      </Card>,
    );
  });

  it('LinkButton is a Button around a Link, LightButton a Button', () => {
    same(
      <LinkButton to="/invoices/1" variant="soft" size="1">
        x
      </LinkButton>,
      <Button asChild variant="soft" size="1">
        <Link to="/invoices/1">x</Link>
      </Button>,
    );
    same(
      <LinkButton to="?period=7d" size="1" variant="solid" color="green" preventScrollReset aria-current="true" data-testid="p">
        x
      </LinkButton>,
      <Button asChild size="1" variant="solid" color="green">
        <Link to="?period=7d" preventScrollReset aria-current="true" data-testid="p">
          x
        </Link>
      </Button>,
    );
    same(
      <LightButton size="1">x</LightButton>,
      <Button type="submit" size="1">
        x
      </Button>,
    );
    same(
      <LightButton size="1" color="green" disabled>
        x
      </LightButton>,
      <Button type="submit" size="1" color="green" disabled>
        x
      </Button>,
    );
    same(
      <LightButton as="summary" size="1" color="red" variant="soft">
        x
      </LightButton>,
      <Button asChild size="1" color="red" variant="soft">
        <summary>x</summary>
      </Button>,
    );
  });

  it('FactRows and Fact are the DataList', () => {
    const markup = same(
      <FactRows size="1">
        <Fact label="Amount" labelWidth="120px" data-testid="amount">
          1,00
        </Fact>
        <Fact label="Fee">2,00</Fact>
      </FactRows>,
      <DataList.Root size="1">
        <DataList.Item>
          <DataList.Label minWidth="120px">Amount</DataList.Label>
          <DataList.Value data-testid="amount">1,00</DataList.Value>
        </DataList.Item>
        <DataList.Item>
          <DataList.Label>Fee</DataList.Label>
          <DataList.Value>2,00</DataList.Value>
        </DataList.Item>
      </DataList.Root>,
    );
    expect(markup).toContain('style="--min-width:120px"');
    same(<FactRows>x</FactRows>, <DataList.Root>x</DataList.Root>);
  });

  it('Meter is Progress', () => {
    same(<Meter value={90} mt="1" aria-label="Automatic" />, <Progress value={90} mt="1" aria-label="Automatic" />);
    same(
      <Meter value={42.5} max={100} color="amber" aria-label="Usage" data-testid="u" data-percent={43} />,
      <Progress value={42.5} max={100} color="amber" aria-label="Usage" data-testid="u" data-percent={43} />,
    );
    const full = same(<Meter value={100} max={100} color="red" aria-label="Full" />, <Progress value={100} max={100} color="red" aria-label="Full" />);
    expect(full).toContain('data-state="complete"');
    same(<Meter value={0} aria-label="Empty" />, <Progress value={0} aria-label="Empty" />);
  });
});
