// Matches recorded answers to the responses of the OpenAPI description and validates their bodies with
// ajv (JSON Schema 2020-12, the dialect OpenAPI 3.1 uses): path template + method + status (exact, else
// its range 4XX/5XX/2XX, as OpenAPI resolves them), then the body against that response's schema.

import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import type { OpenApiDocument } from '../src/openapi/build-openapi.js';

type FormatsPlugin = (typeof formatsModule)['default'];
const addFormats: FormatsPlugin =
  (formatsModule as unknown as { default?: FormatsPlugin }).default ?? (formatsModule as unknown as FormatsPlugin);

const DOC_ID = 'openapi.json';

interface MediaType {
  schema?: unknown;
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}
interface Response {
  content?: Record<string, MediaType>;
}
interface OperationObject {
  responses: Record<string, Response>;
  requestBody?: { content: Record<string, MediaType> };
}

export interface Answer {
  method: string;
  url: string;
  status: number;
  contentType: string | undefined;
  body: string | undefined;
}
export type Verdict =
  { ok: true; operation: string; responseKey: string } | { ok: false; operation?: string; reason: string };

/** JSON pointer escaping of one token. */
const esc = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');

function openApiAjv(doc: OpenApiDocument): Ajv2020 {
  // strict off: the document is added whole so that #/components/schemas/... resolve inside it, and
  // its non-schema parts (info, paths, examples) are no keywords ajv knows.
  const ajv = new Ajv2020({ allErrors: true, strict: false, allowUnionTypes: true });
  addFormats(ajv);
  ajv.addSchema({ ...doc, $id: DOC_ID });
  return ajv;
}

export class OpenApiResponses {
  private readonly templates: { path: string; re: RegExp }[];
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(
    private readonly doc: OpenApiDocument,
    private readonly ajv: Ajv2020 = openApiAjv(doc),
  ) {
    const paths = doc.paths as Record<string, unknown>;
    this.templates = Object.keys(paths).map((path) => ({
      path,
      re: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    }));
  }

  /** A validator of the schema at `pointer` (a JSON pointer into the document). */
  validatorAt(pointer: string): ValidateFunction {
    let v = this.compiled.get(pointer);
    if (!v) this.compiled.set(pointer, (v = this.ajv.compile({ $ref: `${DOC_ID}#${pointer}` })));
    return v;
  }

  judge(answer: Answer, basePath: string): Verdict {
    const pathname = new URL(answer.url).pathname;
    if (!pathname.startsWith(basePath))
      return { ok: false, reason: `${answer.method} ${pathname}: outside the base path ${basePath}` };
    const rel = pathname.slice(basePath.length);
    const template = this.templates.find((t) => t.re.test(rel));
    if (!template) return { ok: false, reason: `${answer.method} ${rel}: no path of the document matches` };
    const method = answer.method.toLowerCase();
    const op = (this.doc.paths as Record<string, Record<string, OperationObject>>)[template.path]![method];
    const operation = `${method.toUpperCase()} ${template.path}`;
    if (!op) return { ok: false, operation, reason: `${operation}: no such operation` };
    const status = String(answer.status);
    const responseKey = [status, `${status[0]}XX`, 'default'].find((k) => op.responses[k] !== undefined);
    if (!responseKey)
      return {
        ok: false,
        operation,
        reason: `${operation} answered ${status}: no response of the operation covers it`,
      };
    const media = op.responses[responseKey]!.content?.['application/json'];
    if (!media) return { ok: true, operation, responseKey };
    if (!answer.contentType?.toLowerCase().startsWith('application/json'))
      return { ok: false, operation, reason: `${operation} ${status}: content-type ${answer.contentType ?? '(none)'}` };
    let body: unknown;
    try {
      body = JSON.parse(answer.body ?? '');
    } catch {
      return { ok: false, operation, reason: `${operation} ${status}: the body is no JSON` };
    }
    const pointer = `/paths/${esc(template.path)}/${method}/responses/${esc(responseKey)}/content/${esc('application/json')}/schema`;
    const validate = this.validatorAt(pointer);
    if (validate(body)) return { ok: true, operation, responseKey };
    const issues = (validate.errors ?? [])
      .slice(0, 3)
      .map((e) => `${e.instancePath || '/'} ${e.message}`)
      .join('; ');
    return { ok: false, operation, reason: `${operation} ${status} (${responseKey}): ${issues}` };
  }
}
