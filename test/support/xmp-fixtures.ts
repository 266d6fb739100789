/**
 * The photographer's metadata as the tools write it: XMP packets as Lightroom Classic writes
 * them (into the JPEG it exports, and into `IMG_0001.xmp` sidecars beside raw files, with its
 * develop settings around what the gallery reads), IPTC-IIM as Photo Mechanic writes it into
 * the JPEG (an APP13 "Photoshop 3.0" segment), and EXIF Artist (a camera's owner setting).
 */
import sharp from 'sharp';

export type XmpSpec = {
  rating?: number;
  label?: string;
  title?: string;
  headline?: string;
  caption?: string;
  keywords?: string[];
  hierarchical?: string[];
  creator?: string;
  credit?: string;
};

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const bag = (tag: string, kind: 'Bag' | 'Seq', items: string[] | undefined) =>
  items?.length
    ? `   <${tag}>\n    <rdf:${kind}>\n${items.map((i) => `     <rdf:li>${esc(i)}</rdf:li>`).join('\n')}\n    </rdf:${kind}>\n   </${tag}>\n`
    : '';
const alt = (tag: string, value: string | undefined) =>
  value === undefined
    ? ''
    : `   <${tag}>\n    <rdf:Alt>\n     <rdf:li xml:lang="x-default">${esc(value)}</rdf:li>\n    </rdf:Alt>\n   </${tag}>\n`;

/** An XMP packet as Lightroom Classic 13 writes it (attributes for simple values, arrays as elements). */
export function lightroomXmp(spec: XmpSpec): string {
  const attrs = [
    ['xmp:ModifyDate', '2026-07-03T18:22:41-04:00'],
    ['xmp:CreatorTool', 'Adobe Photoshop Lightroom Classic 13.4 (Macintosh)'],
    ['xmp:MetadataDate', '2026-07-03T18:22:41-04:00'],
    ...(spec.rating === undefined ? [] : [['xmp:Rating', String(spec.rating)]]),
    ...(spec.label === undefined ? [] : [['xmp:Label', spec.label]]),
    ...(spec.headline === undefined ? [] : [['photoshop:Headline', spec.headline]]),
    ...(spec.credit === undefined ? [] : [['photoshop:Credit', spec.credit]]),
    ['xmpMM:DocumentID', 'xmp.did:6b1d5d3e-6c0e-4c8e-9d3f-2a1b0c9d8e7f'],
    ['crs:Version', '16.4'],
    ['crs:ProcessVersion', '15.4'],
    ['crs:WhiteBalance', 'As Shot'],
    ['crs:Exposure2012', '+0.35'],
  ]
    .map(([k, v]) => `    ${k}="${esc(v as string)}"`)
    .join('\n');
  return `<x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="Adobe XMP Core 7.0-c000 1.000000, 0000/00/00-00:00:00        ">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:xmp="http://ns.adobe.com/xap/1.0/"
    xmlns:dc="http://purl.org/dc/elements/1.1/"
    xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/"
    xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/"
    xmlns:crs="http://ns.adobe.com/camera-raw-settings/1.0/"
    xmlns:lr="http://ns.adobe.com/lightroom/1.0/"
${attrs}>
${bag('dc:creator', 'Seq', spec.creator === undefined ? undefined : [spec.creator])}${alt('dc:title', spec.title)}${alt('dc:description', spec.caption)}${bag('dc:subject', 'Bag', spec.keywords)}${bag('lr:hierarchicalSubject', 'Bag', spec.hierarchical)}  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>`;
}

/** A sidecar file's text: the packet in its xpacket wrapper, as Lightroom saves `IMG_0001.xmp`. */
export function lightroomSidecar(spec: XmpSpec): string {
  return `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>\n${lightroomXmp(spec)}\n<?xpacket end="w"?>`;
}

export type PhotoSpec = {
  xmp?: XmpSpec;
  iptc?: { keywords?: string[]; caption?: string; byline?: string; headline?: string };
  artist?: string;
  takenAt?: string;
  color?: string;
  width?: number;
};

/** IPTC-IIM record 2 datasets: keywords 25, by-line 80, headline 105, caption 120. */
function iptcSegment(iptc: NonNullable<PhotoSpec['iptc']>): Buffer {
  const sets: Buffer[] = [Buffer.from([0x1c, 2, 0, 0, 2, 0, 4])]; // record version 4
  const add = (dataset: number, value: string) => {
    const data = Buffer.from(value, 'utf8');
    const head = Buffer.from([0x1c, 2, dataset, 0, 0]);
    head.writeUInt16BE(data.length, 3);
    sets.push(head, data);
  };
  for (const k of iptc.keywords ?? []) add(25, k);
  if (iptc.byline) add(80, iptc.byline);
  if (iptc.headline) add(105, iptc.headline);
  if (iptc.caption) add(120, iptc.caption);
  // UTF-8 declared (1:90 ESC % G), as Photo Mechanic writes it.
  sets.unshift(Buffer.from([0x1c, 1, 90, 0, 3, 0x1b, 0x25, 0x47]));
  let iim = Buffer.concat(sets);
  if (iim.length % 2) iim = Buffer.concat([iim, Buffer.from([0])]);
  const resource = Buffer.concat([Buffer.from('8BIM'), Buffer.from([0x04, 0x04, 0, 0]), Buffer.alloc(4), iim]);
  resource.writeUInt32BE(iim.length, 8);
  const payload = Buffer.concat([Buffer.from('Photoshop 3.0\0', 'latin1'), resource]);
  const head = Buffer.from([0xff, 0xed, 0, 0]);
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([head, payload]);
}

/** A small real JPEG carrying the given metadata. */
export async function photoWithMetadata(spec: PhotoSpec = {}): Promise<Buffer> {
  let img = sharp({
    create: { width: spec.width ?? 48, height: 32, channels: 3, background: spec.color ?? '#3366aa' },
  }).jpeg({ quality: 60 });
  const ifd0 = spec.artist ? { Artist: spec.artist } : undefined;
  const ifd2 = spec.takenAt ? { DateTimeOriginal: spec.takenAt } : undefined;
  if (ifd0 || ifd2) img = img.withExif({ ...(ifd0 ? { IFD0: ifd0 } : {}), ...(ifd2 ? { IFD2: ifd2 } : {}) });
  if (spec.xmp) img = img.withXmp(lightroomXmp(spec.xmp));
  let jpeg = await img.toBuffer();
  if (spec.iptc) jpeg = Buffer.concat([jpeg.subarray(0, 2), iptcSegment(spec.iptc), jpeg.subarray(2)]);
  return jpeg;
}
