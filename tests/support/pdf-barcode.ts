import { BinaryBitmap, DecodeHintType, HybridBinarizer, PDF417Reader, RGBLuminanceSource, ZXingStringEncoding } from '@zxing/library';
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** pdf.js's decoded image kinds (ImageKind): 1 bit grey, 8-bit RGB, 8-bit RGBA. */
const GRAYSCALE_1BPP = 1;
const RGB_24BPP = 2;

interface DecodedImage {
  width: number;
  height: number;
  kind: number;
  data: Uint8ClampedArray;
}

/** An image's luminance per pixel, whatever kind pdf.js decoded it as. */
function luminance(image: DecodedImage): Uint8ClampedArray {
  const pixels = new Uint8ClampedArray(image.width * image.height);
  if (image.kind === GRAYSCALE_1BPP) {
    const rowBytes = (image.width + 7) >> 3;
    for (let y = 0; y < image.height; y += 1) {
      for (let x = 0; x < image.width; x += 1) pixels[y * image.width + x] = (image.data[y * rowBytes + (x >> 3)] >> (7 - (x & 7))) & 1 ? 255 : 0;
    }
    return pixels;
  }
  const channels = image.kind === RGB_24BPP ? 3 : 4;
  for (let pixel = 0; pixel < pixels.length; pixel += 1) {
    const at = pixel * channels;
    pixels[pixel] = Math.round((image.data[at] + image.data[at + 1] + image.data[at + 2]) / 3);
  }
  return pixels;
}

/**
 * The bytes of every PDF417 symbol drawn as an image on the PDF's pages, read back with a real decoder (ZXing): the
 * images come out of the file itself (pdf.js decodes each image XObject a page paints), so a test sees what a
 * banking app scanning the printed slip would. The decoder's text is taken byte for byte; the caller applies the
 * character set the format names.
 */
export async function pdf417InPdf(pdf: Uint8Array): Promise<Uint8Array[]> {
  const previous = ZXingStringEncoding.customDecoder;
  // Byte compaction's bytes as one character each, so no character set is guessed here.
  ZXingStringEncoding.customDecoder = (bytes: Uint8Array) => String.fromCharCode(...bytes);
  const document = await getDocument({ data: new Uint8Array(pdf), useSystemFonts: false, isEvalSupported: false }).promise;
  try {
    const found: Uint8Array[] = [];
    for (let number = 1; number <= document.numPages; number += 1) {
      const page = await document.getPage(number);
      const operators = await page.getOperatorList();
      for (let index = 0; index < operators.fnArray.length; index += 1) {
        if (operators.fnArray[index] !== OPS.paintImageXObject) continue;
        const name = operators.argsArray[index][0] as string;
        const image = await new Promise<DecodedImage>((resolve) => page.objs.get(name, resolve));
        const source = new RGBLuminanceSource(luminance(image), image.width, image.height);
        const hints = new Map<DecodeHintType, unknown>([[DecodeHintType.PURE_BARCODE, true]]);
        try {
          const text = new PDF417Reader().decode(new BinaryBitmap(new HybridBinarizer(source)), hints).getText();
          found.push(Uint8Array.from(text, (character) => character.charCodeAt(0)));
        } catch {
          // Not a PDF417 symbol (a logo, a photo): skipped.
        }
      }
    }
    return found;
  } finally {
    ZXingStringEncoding.customDecoder = previous;
    await document.destroy();
  }
}
