/**
 * The part of `@sealsystems/ipp` (which ships no types) that ipp-client.ts uses. Messages are
 * plain objects keyed by IPP group (`operation-attributes-tag`, ...) and attribute name; the
 * library picks each attribute's syntax from its registry.
 */
declare module '@sealsystems/ipp' {
  export type IppValue = string | number | boolean | IppValue[] | { [name: string]: IppValue };
  export type IppGroup = Record<string, IppValue>;
  export type IppMessage = {
    'operation-attributes-tag'?: IppGroup;
    'job-attributes-tag'?: IppGroup;
    data?: Buffer;
  };
  export type IppResponse = {
    version: string;
    /** `successful-ok`, `client-error-not-found`, ... */
    statusCode: string;
    id: number;
    'operation-attributes-tag'?: IppGroup;
    'printer-attributes-tag'?: IppGroup;
    /** One job: a group; several (Get-Jobs): an array of groups. */
    'job-attributes-tag'?: IppGroup | IppGroup[];
    'unsupported-attributes-tag'?: IppGroup;
  };
  export type PrinterOptions = {
    /** Milliseconds without traffic on the socket before the request fails with ETIMEDOUT. */
    timeout?: number;
    agent?: import('node:http').Agent;
    /** `user:password` for HTTP Basic. */
    auth?: string;
    uri?: string;
  };
  export interface IppPrinter {
    execute(operation: string, message: IppMessage, callback: (err: Error | null, response: IppResponse) => void): void;
  }
  export function Printer(url: string, options?: PrinterOptions): IppPrinter;
  const ipp: { Printer: typeof Printer };
  export default ipp;
}
