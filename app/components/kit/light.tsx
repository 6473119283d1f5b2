import { Link } from '@remix-run/react';
import type { CSSProperties, ReactNode, TextareaHTMLAttributes } from 'react';

/**
 * Light stand-ins for the Radix Themes layout and type components of the
 * repeated markup (cards, rows, badges of /, /invoices, /clients and the
 * shell's sidebar). Radix runs its prop extraction (~60 definitions merged
 * and walked, with allocations) on every render; these write the same
 * elements, attributes and class names straight from a few plain props,
 * without object spreads (docs/benchmarks.md, 2026-11-28). Only plain
 * (non-responsive) values: a responsive value or a rarer prop stays Radix.
 * `light.test.tsx` renders each against its Radix original.
 */

type Space = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9';
type TextSize = '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9';
type Weight = 'light' | 'regular' | 'medium' | 'bold';
type Align = 'start' | 'center' | 'end' | 'baseline' | 'stretch';
/** Radix Themes' accent colours the pages use (a type, so a typo fails the build). */
type AccentColour = 'gray' | 'amber' | 'orange' | 'red' | 'crimson' | 'green' | 'blue' | 'indigo';

interface FlexLayout {
  direction?: 'row' | 'column' | 'row-reverse' | 'column-reverse';
  align?: Align;
  justify?: 'start' | 'center' | 'end' | 'between';
  wrap?: 'nowrap' | 'wrap' | 'wrap-reverse';
  gap?: Space;
  py?: Space;
  mt?: Space;
  mb?: Space;
}

// Radix's order: the component's class, then its props in their definition order, then the caller's class.
function flexClasses(direction?: string, align?: string, justify?: string, wrap?: string, gap?: string, py?: string, mt?: string, mb?: string, className?: string): string {
  let classes = 'rt-Flex';
  if (direction) classes += ' rt-r-fd-' + direction;
  if (align) classes += ' rt-r-ai-' + align;
  if (justify) classes += justify === 'between' ? ' rt-r-jc-space-between' : ' rt-r-jc-' + justify;
  if (wrap) classes += ' rt-r-fw-' + wrap;
  if (gap) classes += ' rt-r-gap-' + gap;
  if (py) classes += ' rt-r-py-' + py;
  if (mt) classes += ' rt-r-mt-' + mt;
  if (mb) classes += ' rt-r-mb-' + mb;
  if (className) classes += ' ' + className;
  return classes;
}

/**
 * The class of a Radix `Flex` with these props, for a row that carries its own
 * data attribute (`data-task-id`…): computed once at module load,
 * `<div className={ROW} data-task-id={id}>`.
 */
export function flexClass(layout: FlexLayout): string {
  return flexClasses(layout.direction, layout.align, layout.justify, layout.wrap, layout.gap, layout.py, layout.mt, layout.mb);
}

interface Common {
  className?: string;
  style?: CSSProperties;
  'data-testid'?: string;
  children?: ReactNode;
}

/** Radix `Flex` (a `div`, or a `span`). */
export function Stack(props: FlexLayout & Common & { as?: 'div' | 'span'; role?: string; 'aria-label'?: string }) {
  const className = flexClasses(props.direction, props.align, props.justify, props.wrap, props.gap, props.py, props.mt, props.mb, props.className);
  if (props.as === 'span') {
    return (
      <span role={props.role} aria-label={props['aria-label']} data-testid={props['data-testid']} style={props.style} className={className}>
        {props.children}
      </span>
    );
  }
  return (
    <div role={props.role} aria-label={props['aria-label']} data-testid={props['data-testid']} style={props.style} className={className}>
      {props.children}
    </div>
  );
}

type Columns = '1' | '2' | '3' | '4';
type Breakpoint = 'initial' | 'xs' | 'sm' | 'md' | 'lg' | 'xl';
const BREAKPOINTS: readonly Breakpoint[] = ['initial', 'xs', 'sm', 'md', 'lg', 'xl'];

/** Radix `Grid` with token columns per breakpoint (`{ initial: '1', md: '2' }`) and a gap. */
export function LightGrid(props: { columns: Partial<Record<Breakpoint, Columns>>; gap?: Space; 'data-testid'?: string; children?: ReactNode }) {
  let className = 'rt-Grid';
  for (const breakpoint of BREAKPOINTS) {
    const columns = props.columns[breakpoint];
    if (columns) className += breakpoint === 'initial' ? ' rt-r-gtc-' + columns : ' ' + breakpoint + ':rt-r-gtc-' + columns;
  }
  if (props.gap) className += ' rt-r-gap-' + props.gap;
  return (
    <div data-testid={props['data-testid']} className={className}>
      {props.children}
    </div>
  );
}

/** Radix `Box` without layout props. */
export function LightBox(props: Common) {
  return (
    <div data-testid={props['data-testid']} style={props.style} className={props.className ? 'rt-Box ' + props.className : 'rt-Box'}>
      {props.children}
    </div>
  );
}

function textClasses(base: string, size: string | undefined, weight: string | undefined, truncate: boolean | undefined, className: string | undefined): string {
  let classes = base;
  if (size) classes += ' rt-r-size-' + size;
  if (weight) classes += ' rt-r-weight-' + weight;
  if (truncate) classes += ' rt-truncate';
  if (className) classes += ' ' + className;
  return classes;
}

interface TextProps extends Common {
  id?: string;
  size?: TextSize;
  weight?: Weight;
  color?: AccentColour;
  truncate?: boolean;
  title?: string;
  'data-value'?: string | number;
  suppressHydrationWarning?: boolean;
}

/** Radix `Text`: a `span`, `div`, `p` or (with `htmlFor`) a `label`. */
export function LightText(props: TextProps & ({ as?: 'span' | 'div' | 'p'; htmlFor?: undefined } | { as: 'label'; htmlFor: string })) {
  const className = textClasses('rt-Text', props.size, props.weight, props.truncate, props.className);
  const Element = props.as ?? 'span';
  return (
    <Element
      id={props.id}
      htmlFor={props.htmlFor}
      data-accent-color={props.color}
      data-testid={props['data-testid']}
      data-value={props['data-value']}
      title={props.title}
      style={props.style}
      className={className}
      suppressHydrationWarning={props.suppressHydrationWarning}
    >
      {props.children}
    </Element>
  );
}

/** Radix `Heading` (its default size is 6). */
export function LightHeading(props: { as: 'h1' | 'h2' | 'h3' | 'h4'; size?: TextSize; mb?: Space; children?: ReactNode }) {
  const Element = props.as;
  return (
    <Element className={props.mb ? 'rt-Heading rt-r-size-' + (props.size ?? '6') + ' rt-r-mb-' + props.mb : 'rt-Heading rt-r-size-' + (props.size ?? '6')}>
      {props.children}
    </Element>
  );
}

/** Radix `Badge` (size 1 and variant soft by default, as there). */
export function LightBadge(props: {
  color?: AccentColour;
  variant?: 'solid' | 'soft' | 'surface' | 'outline';
  size?: '1' | '2' | '3';
  radius?: 'none' | 'small' | 'medium' | 'large' | 'full';
  className?: string;
  title?: string;
  'data-testid'?: string;
  children?: ReactNode;
}) {
  let className = 'rt-reset rt-Badge rt-r-size-' + (props.size ?? '1') + ' rt-variant-' + (props.variant ?? 'soft');
  if (props.className) className += ' ' + props.className;
  return (
    <span data-accent-color={props.color ?? ''} data-radius={props.radius} data-testid={props['data-testid']} title={props.title} className={className}>
      {props.children}
    </span>
  );
}

/** Radix `Card` (variant surface). */
export function LightCard(props: { size?: '1' | '2' | '3' | '4' | '5'; 'data-testid'?: string; 'data-invoice-number'?: string; children?: ReactNode }) {
  return (
    <div
      data-testid={props['data-testid']}
      data-invoice-number={props['data-invoice-number']}
      className={'rt-reset rt-BaseCard rt-Card rt-r-size-' + (props.size ?? '1') + ' rt-variant-surface'}
    >
      {props.children}
    </div>
  );
}

type ButtonVariant = 'classic' | 'solid' | 'soft' | 'surface' | 'outline' | 'ghost';

function buttonClasses(size: string | undefined, variant: string | undefined): string {
  return 'rt-reset rt-BaseButton rt-r-size-' + (size ?? '2') + ' rt-variant-' + (variant ?? 'solid') + ' rt-Button';
}

/** Radix `<Button asChild><Link …/></Button>`: a link that looks like a button. */
export function LinkButton(props: {
  to: string;
  size?: '1' | '2' | '3' | '4';
  variant?: ButtonVariant;
  color?: AccentColour;
  preventScrollReset?: boolean;
  rel?: 'prev' | 'next';
  'aria-current'?: 'true';
  'data-testid'?: string;
  children?: ReactNode;
}) {
  return (
    <Link
      to={props.to}
      preventScrollReset={props.preventScrollReset}
      rel={props.rel}
      aria-current={props['aria-current']}
      data-testid={props['data-testid']}
      data-accent-color={props.color ?? ''}
      className={buttonClasses(props.size, props.variant)}
    >
      {props.children}
    </Link>
  );
}

/** Radix `Button` as a submit button, or (`as="summary"`) the face of a `<details>` disclosure. */
export function LightButton(props: {
  as?: 'button' | 'summary';
  size?: '1' | '2' | '3' | '4';
  variant?: ButtonVariant;
  color?: AccentColour;
  disabled?: boolean;
  'data-testid'?: string;
  children?: ReactNode;
}) {
  if (props.as === 'summary') {
    return (
      <summary data-accent-color={props.color ?? ''} className={buttonClasses(props.size, props.variant)}>
        {props.children}
      </summary>
    );
  }
  return (
    <button
      type="submit"
      data-testid={props['data-testid']}
      data-disabled={props.disabled || undefined}
      data-accent-color={props.color ?? ''}
      className={buttonClasses(props.size, props.variant)}
      disabled={props.disabled}
    >
      {props.children}
    </button>
  );
}

/** Radix `TextArea` (size 2, variant surface): the text area's own attributes land on the `textarea`. */
export function LightTextArea(props: Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'className' | 'style'> & { 'data-testid'?: string }) {
  return (
    <div className="rt-TextAreaRoot rt-r-size-2 rt-variant-surface">
      <textarea className="rt-reset rt-TextAreaInput" {...props} />
    </div>
  );
}

/** Radix `DataList.Root` (horizontal); its rows are `Fact`s. */
export function FactRows(props: { size?: '1' | '2' | '3'; children?: ReactNode }) {
  return <dl className={'rt-Text rt-DataListRoot rt-r-orientation-horizontal rt-r-size-' + (props.size ?? '2')}>{props.children}</dl>;
}

// One style object per label width, shared by every row that uses it.
const labelStyles = new Map<string, CSSProperties>();
function labelStyle(width: string): CSSProperties {
  let style = labelStyles.get(width);
  if (!style) {
    style = { '--min-width': width } as CSSProperties;
    labelStyles.set(width, style);
  }
  return style;
}

/** Text as React escapes it in markup: the same five characters, the same entities. */
export function escapeHtml(text: string): string {
  return /[&<>"']/.test(text) ? text.replace(/[&<>"']/g, (character) => HTML_ENTITIES[character]) : text;
}
const HTML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' };

/** One row of `FactList`: plain text only. */
export interface FactText {
  label: string;
  value: string;
  'data-testid'?: string;
}

/**
 * `FactRows` of `Fact`s whose labels and values are plain text, written as
 * one string of the same markup instead of three React elements a row: a
 * page of 20 invoice cards has ~480 of them, and React's per-element work was
 * ~2 ms of its ~13 (docs/benchmarks.md). The browser gets the same elements;
 * React leaves them as they are and rewrites them when the text changes.
 * `light.test.tsx` renders it against `FactRows` and `Fact`.
 */
export function FactList(props: { size?: '1' | '2' | '3'; labelWidth?: string; rows: FactText[] }) {
  const labelOpen = props.labelWidth ? `<dt style="--min-width:${escapeHtml(props.labelWidth)}" class="rt-DataListLabel rt-r-min-w">` : '<dt class="rt-DataListLabel">';
  let html = '';
  for (const row of props.rows) {
    const testId = row['data-testid'] === undefined ? '' : ` data-testid="${escapeHtml(row['data-testid'])}"`;
    html += `<div class="rt-DataListItem">${labelOpen}${escapeHtml(row.label)}</dt><dd${testId} class="rt-DataListValue">${escapeHtml(row.value)}</dd></div>`;
  }
  return <dl className={'rt-Text rt-DataListRoot rt-r-orientation-horizontal rt-r-size-' + (props.size ?? '2')} dangerouslySetInnerHTML={{ __html: html }} />;
}

/** Radix `DataList.Item` with its `Label` (of `labelWidth` at least) and `Value` (`data-testid` lands on the value). */
export function Fact(props: { label: ReactNode; labelWidth?: string; 'data-testid'?: string; children?: ReactNode }) {
  return (
    <div className="rt-DataListItem">
      {props.labelWidth ? (
        <dt style={labelStyle(props.labelWidth)} className="rt-DataListLabel rt-r-min-w">
          {props.label}
        </dt>
      ) : (
        <dt className="rt-DataListLabel">{props.label}</dt>
      )}
      <dd data-testid={props['data-testid']} className="rt-DataListValue">
        {props.children}
      </dd>
    </div>
  );
}

/**
 * Radix `Progress` (size 2, variant surface) with a determinate value: a value
 * that is no number from 0 to max is indeterminate, as there.
 */
export function Meter(props: { value: number; max?: number; color?: AccentColour; mt?: Space; 'aria-label': string; 'data-testid'?: string; 'data-percent'?: number }) {
  const max = props.max ?? 100;
  const value = props.value >= 0 && props.value <= max ? props.value : undefined;
  const state = value === undefined ? 'indeterminate' : value === max ? 'complete' : 'loading';
  return (
    <div
      aria-valuemax={max}
      aria-valuemin={0}
      aria-valuenow={value}
      aria-valuetext={value === undefined ? undefined : Math.round((value / max) * 100) + '%'}
      role="progressbar"
      data-state={state}
      data-value={value}
      data-max={max}
      data-accent-color={props.color}
      className={props.mt ? 'rt-ProgressRoot rt-r-size-2 rt-variant-surface rt-r-mt-' + props.mt : 'rt-ProgressRoot rt-r-size-2 rt-variant-surface'}
      style={{ '--progress-value': props.value, '--progress-max': props.max } as CSSProperties}
      aria-label={props['aria-label']}
      data-testid={props['data-testid']}
      data-percent={props['data-percent']}
    >
      <div data-state={state} data-value={value} data-max={max} className="rt-ProgressIndicator" />
    </div>
  );
}
