import { describe, expect, it } from 'vitest';
import { classifyAddress, refusalReason } from './address-policy.js';

describe('classifyAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.1.2', 'loopback'],
    ['::1', 'loopback'],
    ['10.0.0.8', 'private'],
    ['172.16.5.4', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['fd12:3456::1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['100.64.0.1', 'shared'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['not-an-ip', 'reserved'],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it.each([
    '8.8.8.8',
    '93.184.216.34',
    '172.32.0.1',
    '2606:4700:4700::1111',
    '[2001:db8::1]'.replace(/\[|\]/g, ''),
  ])('%s is public', (address) => {
    expect(classifyAddress(address)).toBeNull();
  });

  it('judges IPv4 carried in IPv6 by the IPv4 address', () => {
    expect(classifyAddress('::ffff:127.0.0.1')).toBe('loopback');
    expect(classifyAddress('::ffff:10.1.2.3')).toBe('private');
    expect(classifyAddress('64:ff9b::169.254.169.254')).toBe('link-local');
    expect(classifyAddress('2002:c0a8:0101::1')).toBe('private');
    expect(classifyAddress('::ffff:8.8.8.8')).toBeNull();
  });

  it('accepts bracketed and zoned IPv6 literals', () => {
    expect(classifyAddress('[::1]')).toBe('loopback');
    expect(classifyAddress('fe80::1%eth0')).toBe('link-local');
  });
});

describe('refusalReason', () => {
  it('names the host, the address and that private addresses are refused', () => {
    expect(refusalReason('intranet.test', '10.0.0.5', 'KNOWLEDGE_URL_ALLOW_PRIVATE')).toMatch(
      /^intranet\.test \(10\.0\.0\.5\) is a private address; .*private address.*KNOWLEDGE_URL_ALLOW_PRIVATE/,
    );
    expect(refusalReason('127.0.0.1', '127.0.0.1', 'KNOWLEDGE_URL_ALLOW_PRIVATE')).toMatch(
      /^127\.0\.0\.1 is a loopback address/,
    );
    expect(refusalReason('example.com', '93.184.216.34', 'KNOWLEDGE_URL_ALLOW_PRIVATE')).toBeNull();
  });
});
