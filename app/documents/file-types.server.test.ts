import { describe, expect, it } from 'vitest';
import { checkUpload, contentDisposition, detectFileType, safeFileName } from './file-types.server.ts';
import { MAX_UPLOAD_BYTES } from './schemas.ts';

const PDF = Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n%%EOF\n', 'latin1');
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(24)]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(24)]);
const ELF = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01]), Buffer.alloc(32)]);
const MZ = Buffer.concat([Buffer.from('MZ\x90\x00', 'latin1'), Buffer.alloc(60)]);

function status(run: () => unknown): number | 'ok' {
  try {
    run();
    return 'ok';
  } catch (error) {
    if (error instanceof Response) return error.status;
    throw error;
  }
}

describe('detectFileType', () => {
  it('reads PDF, PNG and JPEG from their magic numbers, and nothing else', () => {
    expect(detectFileType(PDF)?.mimeType).toBe('application/pdf');
    expect(detectFileType(PNG)?.mimeType).toBe('image/png');
    expect(detectFileType(JPEG)?.mimeType).toBe('image/jpeg');
    expect(detectFileType(ELF)).toBeNull();
    expect(detectFileType(MZ)).toBeNull();
    expect(detectFileType(Buffer.from('<html><script>alert(1)</script>'))).toBeNull();
    expect(detectFileType(Buffer.alloc(0))).toBeNull();
  });
});

describe('checkUpload', () => {
  it('accepts pdf, png, jpg and jpeg whose content matches the extension', () => {
    expect(checkUpload({ bytes: PDF, fileName: 'Ugovor.PDF' })).toEqual({ mimeType: 'application/pdf', extension: 'pdf' });
    expect(checkUpload({ bytes: PNG, fileName: 'scan.png' })).toEqual({ mimeType: 'image/png', extension: 'png' });
    expect(checkUpload({ bytes: JPEG, fileName: 'osobna.jpg' })).toEqual({ mimeType: 'image/jpeg', extension: 'jpg' });
    expect(checkUpload({ bytes: JPEG, fileName: 'osobna.jpeg' })).toEqual({ mimeType: 'image/jpeg', extension: 'jpeg' });
  });

  it('refuses an executable renamed .pdf with 415', () => {
    expect(status(() => checkUpload({ bytes: ELF, fileName: 'izvadak.pdf' }))).toBe(415);
    expect(status(() => checkUpload({ bytes: MZ, fileName: 'izvadak.pdf', declaredMime: 'application/pdf' }))).toBe(415);
  });

  it('refuses other extensions and content that does not match the extension with 415', () => {
    expect(status(() => checkUpload({ bytes: PDF, fileName: 'ugovor.exe' }))).toBe(415);
    expect(status(() => checkUpload({ bytes: PDF, fileName: 'ugovor' }))).toBe(415);
    expect(status(() => checkUpload({ bytes: PNG, fileName: 'slika.pdf' }))).toBe(415);
    expect(status(() => checkUpload({ bytes: JPEG, fileName: 'osobna.jpg', allowed: ['pdf'] }))).toBe(415);
  });

  it('lets the bytes decide when there is no file name', () => {
    expect(checkUpload({ bytes: PNG, fileName: null })).toEqual({ mimeType: 'image/png', extension: 'png' });
    expect(status(() => checkUpload({ bytes: MZ, fileName: null }))).toBe(415);
  });

  it('accepts exactly 10 MB and refuses 10 MB + 1 byte with 413', () => {
    const exact = Buffer.alloc(MAX_UPLOAD_BYTES);
    PDF.copy(exact);
    expect(MAX_UPLOAD_BYTES).toBe(10485760);
    expect(checkUpload({ bytes: exact, fileName: 'velik.pdf' }).mimeType).toBe('application/pdf');
    const over = Buffer.alloc(MAX_UPLOAD_BYTES + 1);
    PDF.copy(over);
    const error = (() => {
      try {
        checkUpload({ bytes: over, fileName: 'velik.pdf' });
      } catch (thrown) {
        return thrown as Response;
      }
    })();
    expect(error?.status).toBe(413);
  });
});

describe('download names', () => {
  it('strips path separators, control and quote characters and fixes the extension to the real type', () => {
    expect(safeFileName('../../etc/passwd', 'application/pdf')).toBe('_.._etc_passwd.pdf');
    expect(safeFileName('Ugovor "A"\r\n.pdf', 'application/pdf')).toBe('Ugovor _A_.pdf');
    expect(safeFileName('slika.jpeg', 'image/jpeg')).toBe('slika.jpg');
    expect(safeFileName('račun.exe', 'application/pdf')).toBe('račun.exe.pdf');
    expect(safeFileName('', 'image/png')).toBe('document.png');
  });

  it('gives an ASCII fallback and the exact UTF-8 name in filename*', () => {
    expect(contentDisposition('inline', 'Izvješće čćžšđ.pdf')).toBe(
      `inline; filename="Izvjesce cczs_.pdf"; filename*=UTF-8''Izvje%C5%A1%C4%87e%20%C4%8D%C4%87%C5%BE%C5%A1%C4%91.pdf`,
    );
    expect(contentDisposition('attachment', 'a;b.pdf')).toMatch(/^attachment; filename="a;b.pdf"/);
  });
});

describe('XML (the UBL e-invoice kept as an invoice document)', () => {
  const xml = Buffer.from('<?xml version="1.0" encoding="UTF-8"?>\n<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>');

  it('is accepted only where the caller allows xml', () => {
    expect(checkUpload({ bytes: xml, fileName: 'racun.xml', allowed: ['xml'] })).toEqual({ mimeType: 'application/xml', extension: 'xml' });
    expect(() => checkUpload({ bytes: xml, fileName: 'racun.xml' })).toThrow();
  });

  it('is refused with a DOCTYPE, as non-UTF-8 or as plain text', () => {
    const withDoctype = Buffer.from('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>');
    expect(() => checkUpload({ bytes: withDoctype, fileName: 'a.xml', allowed: ['xml'] })).toThrow();
    expect(() => checkUpload({ bytes: Buffer.from([0x3c, 0x61, 0xff, 0xfe, 0x3e]), fileName: 'a.xml', allowed: ['xml'] })).toThrow();
    expect(() => checkUpload({ bytes: Buffer.from('just text'), fileName: 'a.xml', allowed: ['xml'] })).toThrow();
  });
});
