/**
 * A small multipart reader for USPS label answers. No multipart parser is among our
 * dependencies, and a stock `multipart/form-data` parser (undici's `Response.formData()`) is
 * too strict for what USPS sends: USPS's own published examples have parts without a
 * `Content-Disposition` (the 2023 label example names its image part `File Name: label.pdf`)
 * and a `Content-Transfer-Encoding: encode` that is not an encoding. So: split on the
 * boundary, read each part's headers case-insensitively, keep its body as text (USPS's image
 * parts are base64 text and the metadata part is JSON; the label documents say to ignore the
 * parts' Content-Encoding and Content-Transfer-Encoding), and name each part by its
 * Content-Disposition `name`, else by position and type (the label APIs' order is metadata,
 * label image, receipt image).
 */

export interface MultipartPart {
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** The Content-Disposition `name`, when there is one. */
  name: string | null;
  filename: string | null;
  contentType: string | null;
  body: string;
}

/** The boundary from a Content-Type header (`multipart/form-data; boundary=…`), quoted or not. */
export function boundaryOf(contentType: string | undefined): string | null {
  const m = /boundary=(?:"([^"]+)"|([^;,\s]+))/i.exec(contentType ?? '');
  return m ? (m[1] ?? m[2]) : null;
}

function dispositionParam(disposition: string, key: string): string | null {
  const m = new RegExp(`(?:^|;)\\s*${key}\\s*=\\s*(?:"([^"]*)"|([^;]+))`, 'i').exec(disposition);
  return m ? (m[1] ?? m[2]).trim() : null;
}

/**
 * Parts of a multipart body; null when it is not one (no boundary line found). Without a
 * boundary in the header, the body's first `--…` line is taken as the delimiter.
 */
export function parseMultipart(body: string, contentType?: string): MultipartPart[] | null {
  const text = body.replace(/\r\n/g, '\n');
  let boundary = boundaryOf(contentType);
  if (!boundary) {
    const first = /^\s*--(\S+)\s*$/m.exec(text);
    if (!first) return null;
    boundary = first[1];
  }
  const delimiter = `--${boundary}`;
  const lines = text.split('\n');
  const parts: string[][] = [];
  let current: string[] | null = null;
  let sawDelimiter = false;
  for (const line of lines) {
    const t = line.trimEnd();
    if (t === delimiter || t === `${delimiter}--`) {
      sawDelimiter = true;
      if (current) parts.push(current);
      current = t === delimiter ? [] : null;
      if (t !== delimiter) break;
      continue;
    }
    current?.push(line);
  }
  if (current) parts.push(current);
  if (!sawDelimiter) return null;
  return parts.map(readPart).filter((p) => p.body.length > 0 || Object.keys(p.headers).length > 0);
}

/** A header line is `Name: value` (USPS's `File Name: label.pdf` included); a blank line ends them. */
function readPart(lines: string[]): MultipartPart {
  let i = 0;
  // Leading blank lines before the headers.
  while (i < lines.length && lines[i].trim() === '') i++;
  const headers: Record<string, string> = {};
  for (; i < lines.length; i++) {
    const line = lines[i];
    if (line.trim() === '') {
      i++;
      break;
    }
    const m = /^([A-Za-z][A-Za-z0-9 _-]*):\s*(.*)$/.exec(line);
    if (!m) break; // no header block: the body starts here
    headers[m[1].trim().toLowerCase()] = m[2].trim();
  }
  const body = lines.slice(i).join('\n').trim();
  const disposition = headers['content-disposition'] ?? '';
  return {
    headers,
    name: dispositionParam(disposition, 'name'),
    filename: dispositionParam(disposition, 'filename') ?? headers['file name'] ?? null,
    contentType: headers['content-type']?.split(';')[0].trim().toLowerCase() ?? null,
    body,
  };
}

/** Base64 text → bytes; null when it is not base64 (whitespace and line breaks allowed). */
export function decodeBase64(text: string): Buffer | null {
  const compact = text.replace(/\s+/g, '');
  if (compact.length === 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) return null;
  return Buffer.from(compact, 'base64');
}
