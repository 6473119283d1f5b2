import { describe, expect, it } from 'vitest';
import { apiFailure } from '../auth/test-helpers.server.ts';
import { BANK_XML_MESSAGES } from '../banking/xml.server.ts';
import { child, parseXml, textAt } from './reader.server.ts';
import { readXmlUpload } from './upload.server.ts';
import { el, escapeXml, serialiseXml } from './writer.ts';

// The caller's texts are codes; the bank statement's serve here (its 5 MB text, this reader's 1 kB cap).
const MESSAGES = BANK_XML_MESSAGES;
const read = (xml: string | Buffer) => parseXml(xml, { maxBytes: 1024, messages: MESSAGES });
const refusal = async (xml: string | Buffer) => {
  const failure = await apiFailure((async () => read(xml))());
  return { status: failure.status, message: failure.body.message as string, file: failure.body.errors?.file };
};

describe('the safe reader', () => {
  it('resolves namespaces, decodes references and CDATA, trims text', () => {
    const root = read('<?xml version="1.0" encoding="UTF-8"?><a:Doc xmlns:a="urn:a" xmlns="urn:d" a:x="1 &amp; 2"><Item> A &lt;b&gt; &#x2013; <![CDATA[c&d]]> </Item></a:Doc>');
    expect(root).toMatchObject({ ns: 'urn:a', name: 'Doc', attrs: { x: '1 & 2' } });
    expect(child(root, 'Item')).toMatchObject({ ns: 'urn:d', text: 'A <b> – c&d' });
    expect(textAt(root, 'Item')).toBe('A <b> – c&d');
    expect(textAt(root, 'Missing/Path')).toBeNull();
  });

  it('refuses DOCTYPE and ENTITY declarations, other encodings, an empty document, too many bytes (413)', async () => {
    expect(await refusal('<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>')).toEqual({
      status: 400,
      message: 'XML with a DOCTYPE/entities is not accepted',
      file: ['XML with a DOCTYPE/entities is not accepted'],
    });
    expect((await refusal('<!ENTITY e "y"><x/>')).message).toBe('XML with a DOCTYPE/entities is not accepted');
    expect((await refusal('<?xml version="1.0" encoding="ISO-8859-2"?><x/>')).message).toBe('Bank statement XML must be UTF-8 encoded (declared ISO-8859-2)');
    expect((await refusal(Buffer.from([0x3c, 0x78, 0x3e, 0xff, 0x3c, 0x2f, 0x78, 0x3e]))).message).toBe('Bank statement XML must be UTF-8 encoded');
    expect((await refusal(' \n ')).message).toBe('Bank statement XML is empty');
    expect(await refusal(`<x>${'a'.repeat(1100)}</x>`)).toMatchObject({ status: 413, message: 'Bank statement XML is larger than 5 MB' });
  });

  it('refuses control characters raw or by reference, in text, CDATA and attributes; keeps tab, LF and CR', async () => {
    for (const [xml, message] of [
      ['<x>a&#1;b</x>', 'XML text contains a control character (&#1;)'],
      ['<x>a&#xD800;b</x>', 'XML text contains a control character (&#xD800;)'],
      ['<x>a&#0;b</x>', 'XML text contains a control character (&#0;)'],
      ['<x y="&#x1B;"/>', 'XML text contains a control character (&#x1B;)'],
      ['<x>a\u0007b</x>', 'XML text contains a control character'],
      ['<x><![CDATA[a\u0001b]]></x>', 'XML text contains a control character'],
    ]) {
      expect(await refusal(xml), xml).toMatchObject({ status: 400, message });
    }
    expect(read('<x>a&#9;b&#10;c&#13;d</x>').text).toBe('a\tb\nc\rd');
  });

  it('refuses malformed XML with its place, deep nesting and two roots with 400', async () => {
    expect((await refusal('<x><y></x>')).message).toMatch(/^Malformed XML at line 1, column \d+/);
    expect((await refusal(`${'<a>'.repeat(70)}${'</a>'.repeat(70)}`)).message).toBe('Malformed XML: elements nested deeper than 64 levels');
    expect((await refusal('<a/><b/>')).status).toBe(400);
  });
});

describe('the writer', () => {
  it('escapes the five XML characters and drops what XML 1.0 cannot carry, in text and attributes alike', () => {
    expect(escapeXml(`a & b < c > "d" 'e'`)).toBe('a &amp; b &lt; c &gt; &quot;d&quot; &apos;e&apos;');
    expect(escapeXml('x\u0000\u0001\u000B\uFFFE\uD800y\t\n')).toBe('xy\t\n');
    const node = el('Doc', [el('Name', 'A & "B"', { id: '<1>' }), el('Empty', ''), el('None', null)])!;
    expect(serialiseXml(node)).toBe('<Doc>\n  <Name id="&lt;1&gt;">A &amp; &quot;B&quot;</Name>\n</Doc>');
    // Read back by the reader: the same text.
    expect(textAt(read(serialiseXml(node)), 'Name')).toBe('A & "B"');
  });
});

describe('the capped upload reader', () => {
  const post = (body: BodyInit, type: string, query = '') => new Request(`http://localhost/upload${query}`, { method: 'POST', body, headers: { 'Content-Type': type } });

  it('reads a raw body with its query, a multipart file with its fields, and refuses too many bytes (413) and other types (415)', async () => {
    const raw = await readXmlUpload(post('<x/>', 'application/xml', '?fileName=a.xml&clientId=7'), { maxBytes: 100, tooLargeMessage: 'too large' });
    expect(raw.file!.bytes.toString()).toBe('<x/>');
    expect(raw).toMatchObject({ file: { fileName: 'a.xml' }, fields: { clientId: '7', fileName: 'a.xml' } });

    const form = new FormData();
    form.append('clientId', 'c-1');
    form.append('file', new Blob(['<y/>'], { type: 'application/xml' }), 'y.xml');
    const multipart = await readXmlUpload(new Request('http://localhost/upload', { method: 'POST', body: form }), { maxBytes: 100, tooLargeMessage: 'too large' });
    expect(multipart).toMatchObject({ file: { fileName: 'y.xml' }, fields: { clientId: 'c-1' } });
    expect(multipart.file!.bytes.toString()).toBe('<y/>');

    const big = await apiFailure(readXmlUpload(post('<x>' + 'a'.repeat(200) + '</x>', 'text/xml'), { maxBytes: 100, tooLargeMessage: 'too large' }));
    expect(big).toMatchObject({ status: 413, body: { message: 'too large', errors: { file: ['too large'] } } });
    const bigPart = new FormData();
    bigPart.append('file', new Blob(['a'.repeat(200)]), 'big.xml');
    expect(
      (await apiFailure(readXmlUpload(new Request('http://localhost/upload', { method: 'POST', body: bigPart }), { maxBytes: 100, tooLargeMessage: 'too large' }))).status,
    ).toBe(413);
    expect((await apiFailure(readXmlUpload(post('{}', 'application/json'), { maxBytes: 100, tooLargeMessage: 'too large' }))).status).toBe(415);
  });
});
