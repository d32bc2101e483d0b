import { File as NodeFile } from 'node:buffer';
import { fireEvent } from '@testing-library/react';

/*
 * A file as the student picks or drops it. Node's File, not jsdom's: the page sends it in a FormData,
 * which under jest-fixed-jsdom is Node's and would turn a jsdom File into the text "[object File]".
 */
export const aFile = (name: string, bytes = 16) =>
  new NodeFile(['x'.repeat(bytes)], name, { type: 'application/octet-stream' }) as unknown as File;

export function chooseFile(input: HTMLElement, name: string, bytes?: number): void {
  fireEvent.change(input, { target: { files: [aFile(name, bytes)] } });
}

export function dropFile(zone: HTMLElement, name: string, bytes?: number): void {
  fireEvent.drop(zone, { dataTransfer: { files: [aFile(name, bytes)] } });
}
