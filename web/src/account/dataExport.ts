import type { AxiosInstance } from 'axios';

type Http = Pick<AxiosInstance, 'get'>;

/** The file name the server gave (`Content-Disposition: attachment; filename="..."`), or a dated default. */
export function attachmentName(contentDisposition: string | undefined, fallbackDate: Date): string {
  const name = contentDisposition?.match(/filename="([^"/\\]+)"/)?.[1];
  return name ?? `leadforge-data-${fallbackDate.toISOString().slice(0, 10)}.json`;
}

/**
 * Downloads everything the product holds about the signed-in user: the server gathers it from every
 * service (`GET /api/account/export`) and names the file; the browser only saves it.
 */
export async function downloadMyData(http: Http): Promise<string> {
  const response = await http.get<Blob>('/api/account/export', { responseType: 'blob' });
  const fileName = attachmentName(response.headers['content-disposition'] as string | undefined, new Date());
  const href = URL.createObjectURL(response.data);
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
  return fileName;
}
