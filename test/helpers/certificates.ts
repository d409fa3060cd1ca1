import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface Pem {
  cert: string;
  key: string;
  /** SHA-256 fingerprint as openssl prints it (AB:CD:…). */
  fingerprint: string;
}

/**
 * Certificates made with the openssl CLI for mutual-TLS tests: a CA, a server certificate for
 * 127.0.0.1/localhost and client certificates issued by the CA; `rogue` is self-signed.
 */
export function makeCertificates() {
  const dir = mkdtempSync(path.join(tmpdir(), 'ship-certs-'));
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] }).toString();
  const read = (name: string) => readFileSync(path.join(dir, name), 'utf8');
  const fingerprint = (name: string) => ssl('x509', '-in', name, '-noout', '-fingerprint', '-sha256').trim().split('=')[1];

  ssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=Test Client CA');
  const issue = (name: string, subject: string, ext?: string) => {
    ssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject);
    const args = ['x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', `${name}.pem`, '-days', '2'];
    if (ext) {
      writeFileSync(path.join(dir, `${name}.ext`), ext);
      args.push('-extfile', `${name}.ext`);
    }
    ssl(...args);
    return { cert: read(`${name}.pem`), key: read(`${name}.key`), fingerprint: fingerprint(`${name}.pem`) } satisfies Pem;
  };
  const server = issue('server', '/CN=localhost', 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  const client = issue('client', '/CN=warehouse-1/O=Acme');
  const other = issue('other', '/CN=warehouse-2/O=Acme');
  ssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'rogue.key', '-out', 'rogue.pem', '-days', '2', '-subj', '/CN=warehouse-1/O=Acme');
  const rogue: Pem = { cert: read('rogue.pem'), key: read('rogue.key'), fingerprint: fingerprint('rogue.pem') };
  const ca = read('ca.pem');
  rmSync(dir, { recursive: true, force: true });
  return { ca, server, client, other, rogue };
}
