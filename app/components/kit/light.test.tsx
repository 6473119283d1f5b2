import { Badge, Box, Button, Card, DataList, Flex, Grid, Heading, Progress, Text, TextArea } from '@radix-ui/themes';
import { Link } from '@remix-run/react';
import type { ComponentType, ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom/server';
import { describe, expect, it } from 'vitest';
import {
  Fact,
  FactList,
  FactRows,
  flexClass,
  LightBadge,
  LightBox,
  LightButton,
  LightCard,
  LightGrid,
  LightHeading,
  LightText,
  LightTextArea,
  LinkButton,
  Meter,
  Stack,
} from './light.tsx';

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

type Props = Record<string, unknown>;
const as = (component: unknown) => component as ComponentType<Props>;

/** Each light component, its Radix original and the props both get (children 'x'). */
const PAIRS: Array<[string, ComponentType<Props>, ComponentType<Props>, Props[]]> = [
  [
    'Stack is Flex',
    as(Stack),
    as(Flex),
    [
      {},
      { direction: 'column', gap: '3', 'data-testid': 's', role: 'group', 'aria-label': 'Period' },
      { justify: 'between', align: 'start', gap: '2', wrap: 'wrap', py: '1', mt: '2', mb: '3', className: 'extra', style: { borderBottom: '1px solid red' } },
      { as: 'span', justify: 'end', direction: 'row-reverse' },
    ],
  ],
  ['LightBox is Box', as(LightBox), as(Box), [{}, { className: 'sidebar-user', 'data-testid': 'b', style: { minWidth: 0 } }]],
  [
    'LightGrid is Grid',
    as(LightGrid),
    as(Grid),
    [
      { columns: { initial: '1', md: '2' }, gap: '4', 'data-testid': 'invoice-grid' },
      { columns: { initial: '1', sm: '2', lg: '4' }, gap: '4' },
      { columns: { initial: '1', xs: '2', sm: '3', md: '3', lg: '4', xl: '4' } },
    ],
  ],
  [
    'LightText is Text',
    as(LightText),
    as(Text),
    [
      {},
      { as: 'div', size: '1', weight: 'bold', color: 'gray', className: 'sidebar-group-label' },
      { as: 'p', size: '6', weight: 'medium', truncate: true, 'data-testid': 't', 'data-value': 12.5, title: 'hint' },
      { as: 'label', htmlFor: 'reason-1', size: '2', weight: 'medium' },
      { id: 'reason-1-hint', size: '1', color: 'red' },
    ],
  ],
  ['LightHeading is Heading', as(LightHeading), as(Heading), [{ as: 'h2' }, { as: 'h3', size: '4', mb: '3' }]],
  [
    'LightBadge is Badge',
    as(LightBadge),
    as(Badge),
    [{}, { color: 'red', variant: 'solid', radius: 'full', className: 'bell-badge', 'data-testid': 'n', title: 'why' }, { color: 'green', variant: 'outline', size: '2' }],
  ],
  ['LightCard is Card', as(LightCard), as(Card), [{}, { size: '2', 'data-testid': 'c', 'data-invoice-number': 'R-1' }]],
  [
    'Meter is Progress',
    as(Meter),
    as(Progress),
    [
      { value: 90, mt: '1', 'aria-label': 'Automatic' },
      { value: 42.5, max: 100, color: 'amber', 'aria-label': 'Usage', 'data-testid': 'u', 'data-percent': 43 },
      { value: 100, max: 100, color: 'red', 'aria-label': 'Full' },
      { value: 0, 'aria-label': 'Empty' },
    ],
  ],
];

describe('the light kit writes what Radix Themes writes', () => {
  it.each(PAIRS)('%s', (_, Light, Radix, cases) => {
    for (const props of cases) {
      same(<Light {...props}>x</Light>, <Radix {...props}>x</Radix>);
    }
  });

  it('flexClass is the class of a Flex; a full Meter is complete', () => {
    expect(renderToStaticMarkup(<Flex justify="between" align="center" gap="3" py="1" />)).toBe(
      `<div class="${flexClass({ justify: 'between', align: 'center', gap: '3', py: '1' })}"></div>`,
    );
    expect(normalised(<Meter value={100} max={100} aria-label="Full" />)).toContain('data-state="complete"');
  });

  it('LightTextArea is TextArea (a text area has no children)', () => {
    const cases: Props[] = [
      {},
      { id: 'reason-1', name: 'reason', rows: 2, required: true, maxLength: 5000, defaultValue: 'why', 'aria-invalid': true, 'aria-describedby': 'reason-1-error' },
      { placeholder: 'apiKey=...', autoComplete: 'off', spellCheck: false, 'data-testid': 'd' },
    ];
    const [Light, Radix] = [as(LightTextArea), as(TextArea)];
    for (const props of cases) same(<Light {...props} />, <Radix {...props} />);
  });

  it('LinkButton is a Button around a Link, LightButton a Button', () => {
    // Each light button beside the Radix button it stands for.
    const pairs: Array<[ReactElement, ReactElement]> = [
      [
        <LinkButton to="/invoices/1" variant="soft" size="1">
          x
        </LinkButton>,
        <Button asChild variant="soft" size="1">
          <Link to="/invoices/1">x</Link>
        </Button>,
      ],
      [
        <LinkButton to="?period=7d" size="1" variant="solid" color="green" preventScrollReset aria-current="true" data-testid="p">
          x
        </LinkButton>,
        <Button asChild size="1" variant="solid" color="green">
          <Link to="?period=7d" preventScrollReset aria-current="true" data-testid="p">
            x
          </Link>
        </Button>,
      ],
      [
        <LinkButton to="?page=2" rel="next" variant="soft" size="2">
          x
        </LinkButton>,
        <Button asChild variant="soft" size="2">
          <Link to="?page=2" rel="next">
            x
          </Link>
        </Button>,
      ],
      [
        <LinkButton to="/clients" variant="ghost" color="gray">
          x
        </LinkButton>,
        <Button asChild variant="ghost" color="gray">
          <Link to="/clients">x</Link>
        </Button>,
      ],
      [
        <LightButton variant="soft">x</LightButton>,
        <Button type="submit" variant="soft">
          x
        </Button>,
      ],
      [
        <LightButton size="1">x</LightButton>,
        <Button type="submit" size="1">
          x
        </Button>,
      ],
      [
        <LightButton size="1" variant="soft" data-testid="submit">
          x
        </LightButton>,
        <Button type="submit" size="1" variant="soft" data-testid="submit">
          x
        </Button>,
      ],
      [
        <LightButton size="1" color="green" disabled>
          x
        </LightButton>,
        <Button type="submit" size="1" color="green" disabled>
          x
        </Button>,
      ],
      [
        <LightButton as="summary" size="1" color="red" variant="soft">
          x
        </LightButton>,
        <Button asChild size="1" color="red" variant="soft">
          <summary>x</summary>
        </Button>,
      ],
    ];
    for (const [light, radix] of pairs) same(light, radix);
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

  it('FactList writes exactly what FactRows and Fact render, text escaped as React escapes it', () => {
    const rows = [
      { label: 'Amount', value: '1.234,56 €', 'data-testid': 'invoice-amount' },
      { label: 'Client', value: `<script>alert("x")</script> & 'Đurđević' d.o.o.` },
      { label: '', value: '' },
    ];
    for (const [size, labelWidth] of [
      [undefined, undefined],
      ['1', '120px'],
    ] as const) {
      const html = renderToStaticMarkup(<FactList size={size} labelWidth={labelWidth} rows={rows} />);
      expect(html).toBe(
        renderToStaticMarkup(
          <FactRows size={size}>
            {rows.map((row) => (
              <Fact key={row.label} label={row.label} labelWidth={labelWidth} data-testid={row['data-testid']}>
                {row.value}
              </Fact>
            ))}
          </FactRows>,
        ),
      );
      expect(html).not.toContain('<script>');
    }
  });
});
