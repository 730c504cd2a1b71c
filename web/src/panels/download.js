// Save a Blob as a file through a temporary <a download> (every export goes through here).
export function downloadBlob(blob, fileName) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

export const downloadText = (text, fileName, type = 'text/plain') => downloadBlob(new Blob([text], { type: `${type};charset=utf-8` }), fileName);
