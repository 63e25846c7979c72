{{/* An image reference from {repository, tag}. */}}
{{- define "fileshare-csi.image" -}}
{{ .repository }}:{{ .tag }}
{{- end }}
