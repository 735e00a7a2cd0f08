// The variables Kubernetes injects into every container for each Service of its namespace, from the
// Service's name in upper snake case (a Service `svc` gives SVC_SERVICE_HOST, SVC_SERVICE_PORT,
// SVC_SERVICE_PORT_<NAME>, SVC_PORT=tcp://10.0.0.1:80, SVC_PORT_80_TCP, SVC_PORT_80_TCP_PROTO,
// SVC_PORT_80_TCP_PORT, SVC_PORT_80_TCP_ADDR). A Service named `svc` or `svc-…` (the sandbox served in a
// cluster as `svc-certify`, say) would otherwise feed our options or be warned about as a typo. No
// option's variable may have one of these shapes for any Service name, so none of them ends in `_PORT`.

/** Any Service's injected names: a test holds every option variable outside them. */
const INJECTED_NAME =
  /(_SERVICE_HOST|_SERVICE_PORT|_SERVICE_PORT_[A-Z0-9_]+|_PORT|_PORT_\d+_(TCP|UDP|SCTP)(_PROTO|_PORT|_ADDR)?)$/;

/** The value of `<SERVICE>_PORT`: the Service's first port as a URL of its protocol. */
const INJECTED_VALUE = /^(tcp|udp|sctp):\/\/[^\s/]+:\d+$/i;

export function isKubernetesShapedName(name: string): boolean {
  return INJECTED_NAME.test(name);
}

export function isKubernetesShapedValue(value: string): boolean {
  return INJECTED_VALUE.test(value.trim());
}
