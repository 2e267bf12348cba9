// SPDX-License-Identifier: GPL-2.0
/*
 * kmark: markers in loadable modules.
 *
 * The module loader finds a module's kmark() sites (its __kmark_sites
 * section, mod->kmark_sites). When the module comes, each site joins the
 * marker of its system and name, if there is one and the formats and
 * argument blocks agree, or becomes a new marker of the module's
 * ("SYS:NAME FORMAT [module]" in available_markers, SYS being the module's
 * name unless the site names one, "SYS:NAME" in set_event); a site that disagrees
 * stays off, with a line in the kernel log, and the module still loads.
 * Tokens of set_event that named the module before it loaded are applied.
 *
 * When the module goes, its sites leave their markers. A marker it brought
 * is taken out of the namespace with its event files (recording stops,
 * its events/ directories go), but kept, with kmark's copies of its name,
 * format and layout, so that its records still in the buffer render as
 * they were; loaded again with the same marker and format, the module gets
 * it back (same id). One is kept per format.
 */
#define pr_fmt(fmt) "kmark: " fmt

#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sort.h>

#include "kmark_internal.h"

/* Markers of unloaded modules, kept for their records; under kmark_mutex. */
static LIST_HEAD(kmark_gone);

/*
 * Can @site be one of @m's (a live marker of its system and name)? NULL,
 * or why not. A module's site joins a marker of the kernel's or of its own
 * module, never another module's: a marker goes with the module that
 * brought it.
 */
static const char *kmark_site_fits(struct kmark_marker *m, struct module *mod,
				   const struct kmark_site *site)
{
	if (m->ops || m->always_on)
		return "a dynamic event has that name";
	if (m->module && strcmp(m->module, mod->name))
		return "another module's marker has that name";
	if (strcmp(site->format, m->format))
		return "its format is not the marker's";
	return kmark_layout_bind(m->layout, site);
}

/* Add @n sites to @m, armed if @m has probes. Under kmark_mutex. */
static int kmark_marker_add_sites(struct kmark_marker *m,
				  struct kmark_site **sites, unsigned int n)
{
	struct kmark_site **all;
	unsigned int i;

	all = kcalloc(m->nr_sites + n, sizeof(*all), GFP_KERNEL);
	if (!all)
		return -ENOMEM;
	if (m->nr_sites)
		memcpy(all, m->sites, m->nr_sites * sizeof(*all));
	memcpy(all + m->nr_sites, sites, n * sizeof(*all));
	kfree(m->sites);
	m->sites = all;
	m->nr_sites += n;
	for (i = 0; i < n; i++) {
		sites[i]->marker = m;
		if (rcu_access_pointer(m->probes))
			static_branch_enable(&sites[i]->key);
	}
	return 0;
}

static void kmark_module_marker_free(struct kmark_marker *m)
{
	kmark_free_layout(m->layout);
	kfree(m->system);
	kfree(m->name);
	kfree(m->format);
	kfree(m->module);
	kfree(m->sites);
	kfree(m);
}

/* A new marker of module @mod named after @site; NULL if out of memory. */
static struct kmark_marker *kmark_module_marker_new(struct module *mod,
						    struct kmark_site *site)
{
	struct kmark_marker *m = kzalloc(sizeof(*m), GFP_KERNEL);
	unsigned int pos;
	const char *err;

	if (!m)
		return NULL;
	INIT_LIST_HEAD(&m->files);
	m->system = kstrdup(site->system, GFP_KERNEL);
	m->name = kstrdup(site->name, GFP_KERNEL);
	m->format = kstrdup(site->format, GFP_KERNEL);
	m->module = kstrdup(mod->name, GFP_KERNEL);
	if (!m->system || !m->name || !m->format || !m->module)
		goto nomem;
	m->layout = kmark_parse_format(m->format, &err, &pos);
	if (IS_ERR(m->layout)) {
		pr_err("marker %s:%s of module %s: bad format \"%s\" at %u: %s; marker left out\n",
		       m->system, m->name, mod->name, m->format, pos, err);
		m->layout = NULL;
		kmark_module_marker_free(m);
		return ERR_PTR(-EINVAL);
	}
	return m;
nomem:
	kmark_module_marker_free(m);
	return NULL;
}

/*
 * A kept marker of @mod's like @site (system, name and format), or NULL:
 * one per format, so that loading and unloading a module whose marker
 * changed its format does not keep a marker more each time.
 */
static struct kmark_marker *kmark_gone_find(const char *mod,
					    const struct kmark_site *site)
{
	struct kmark_marker *m;

	list_for_each_entry(m, &kmark_gone, list)
		if (!strcmp(m->module, mod) &&
		    !strcmp(m->system, site->system) &&
		    !strcmp(m->name, site->name) &&
		    !strcmp(m->format, site->format))
			return m;
	return NULL;
}

/* The sites of @mod of sites[0]'s marker (@n of them). Under kmark_mutex. */
static void kmark_module_add_group(struct module *mod,
				   struct kmark_site **sites, unsigned int n)
{
	struct kmark_marker *m = kmark_find_marker(sites[0]->system,
						   sites[0]->name);
	struct kmark_marker *gone = NULL;
	bool fresh = false;
	unsigned int i, kept = 0;
	const char *why;

	if (!m) {
		gone = kmark_gone_find(mod->name, sites[0]);
		if (gone) {
			m = gone;
		} else {
			m = kmark_module_marker_new(mod, sites[0]);
			if (IS_ERR_OR_NULL(m)) {
				if (!m)
					pr_err("marker %s:%s of module %s: out of memory; its sites stay off\n",
					       sites[0]->system, sites[0]->name,
					       mod->name);
				return;
			}
			fresh = true;
		}
	}
	for (i = 0; i < n; i++) {
		why = kmark_site_fits(m, mod, sites[i]);
		if (why) {
			pr_err("marker %s:%s of module %s (%pS): %s; that site stays off\n",
			       sites[i]->system, sites[i]->name, mod->name,
			       sites[i], why);
			continue;
		}
		sites[kept++] = sites[i];
	}
	if (!kept)
		goto unused;
	if (fresh) {
		kmark_layout_finish(m->layout);
		if (kmark_dynamic_alloc_id(m))
			goto nomem;
	}
	if (kmark_marker_add_sites(m, sites, kept))
		goto nomem_id;
	if (fresh || m == gone) {
		if (m == gone)
			list_del(&m->list);
		m->gone = false;
		kmark_dynamic_link(m);
		if (kmark_event_files_add(m))
			pr_warn("no events/%s/%s/: out of memory\n", m->system,
				m->name);
	}
	return;
nomem_id:
	if (fresh) {
		kmark_dynamic_free_id(m);
		/* Renderers may have found it by its id: wait for them. */
		synchronize_rcu();
	}
nomem:
	pr_err("marker %s:%s of module %s: out of memory; its sites stay off\n",
	       sites[0]->system, sites[0]->name, mod->name);
unused:
	if (fresh)
		kmark_module_marker_free(m);
}

/* Called by the module notifier, and by KUnit with a module of its own. */
void kmark_module_coming(struct module *mod)
{
	struct kmark_site **sites;
	unsigned int n = mod->num_kmark_sites, i, j;

	if (!n)
		return;
	sites = kmemdup(mod->kmark_sites, n * sizeof(*sites), GFP_KERNEL);
	if (!sites) {
		pr_err("module %s: out of memory; its %u marker sites stay off\n",
		       mod->name, n);
		return;
	}
	sort(sites, n, sizeof(*sites), kmark_site_cmp, NULL);
	mutex_lock(&kmark_mutex);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n; j++)
			if (strcmp(sites[i]->system, sites[j]->system) ||
			    strcmp(sites[i]->name, sites[j]->name))
				break;
		kmark_module_add_group(mod, sites + i, j - i);
	}
	kmark_pending_apply(mod->name);
	mutex_unlock(&kmark_mutex);
	kfree(sites);
}

void kmark_module_going(struct module *mod)
{
	struct kmark_marker *m, *tmp;
	unsigned int i, kept;

	if (!mod->num_kmark_sites)
		return;
	mutex_lock(&kmark_mutex);
	list_for_each_entry_safe(m, tmp, &kmark_markers, list) {
		if (m->ops || m->always_on)
			continue;
		for (i = 0, kept = 0; i < m->nr_sites; i++) {
			struct kmark_site *site = m->sites[i];

			if (!within_module((unsigned long)site, mod)) {
				m->sites[kept++] = site;
				continue;
			}
			if (static_key_enabled(&site->key))
				static_branch_disable(&site->key);
		}
		m->nr_sites = kept;
		if (!m->module || strcmp(m->module, mod->name))
			continue;
		/*
		 * The module's own marker (only its sites join it): out of the
		 * namespace with its event files, kept for its records.
		 */
		WARN_ON_ONCE(kept);
		m->nr_sites = 0;
		kmark_event_files_remove(m);
		list_del(&m->list);
		m->gone = true;
		list_add_tail(&m->list, &kmark_gone);
	}
	mutex_unlock(&kmark_mutex);
	/* No CPU runs a probe of the module's sites from here on. */
	synchronize_rcu();
}

/*
 * Whether a kept marker named @name has @probe with @data (an in-kernel user that did
 * not unregister before the module went); it is returned in @mp. Under
 * kmark_mutex.
 */
bool kmark_gone_has_probe(const char *name, kmark_probe_fn probe, void *data,
			  struct kmark_marker **mp)
{
	struct kmark_marker *m;

	lockdep_assert_held(&kmark_mutex);
	list_for_each_entry(m, &kmark_gone, list) {
		if (!strcmp(m->name, name) && kmark_has_probe(m, probe, data)) {
			*mp = m;
			return true;
		}
	}
	return false;
}

/* How many markers of module @mod are kept for their records (KUnit). */
unsigned int kmark_gone_count(const char *mod)
{
	struct kmark_marker *m;
	unsigned int n = 0;

	mutex_lock(&kmark_mutex);
	list_for_each_entry(m, &kmark_gone, list)
		n += !strcmp(m->module, mod);
	mutex_unlock(&kmark_mutex);
	return n;
}

static int kmark_module_notify(struct notifier_block *nb, unsigned long val,
			       void *data)
{
	struct module *mod = data;

	if (val == MODULE_STATE_COMING)
		kmark_module_coming(mod);
	else if (val == MODULE_STATE_GOING)
		kmark_module_going(mod);
	return NOTIFY_OK;
}

/* After jump_label's (priority 1): the sites' static keys are set up. */
static struct notifier_block kmark_module_nb = {
	.notifier_call = kmark_module_notify,
	.priority = 0,
};

static int __init kmark_module_init(void)
{
	return register_module_notifier(&kmark_module_nb);
}
core_initcall(kmark_module_init);
