"""Keep /admin/ access in step with the club-admin memberships, the cached look (its time zone too) with the club, and a
player's home club among his memberships, however they are edited."""

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from club import shell
from club.models import Club, ClubMember, Membership, Player
from club.services import sync_admin_access


@receiver(post_save, sender=Club, dispatch_uid="club_saved_time_zone")
@receiver(post_delete, sender=Club, dispatch_uid="club_deleted_time_zone")
def club_changed(sender, instance: Club, **kwargs) -> None:
    # the next page reads the zone (club.middleware_tz) and the header's look (club.context_processors) afresh; again
    # after the commit, so that a page that read the old club between the two does not keep it
    keys = [shell.LOOK_CACHE_KEY]
    cache.delete_many(keys)
    transaction.on_commit(lambda: cache.delete_many(keys))


@receiver(post_save, sender=Membership, dispatch_uid="club_membership_saved")
@receiver(post_delete, sender=Membership, dispatch_uid="club_membership_deleted")
def membership_changed(sender, instance: Membership, raw: bool = False, **kwargs) -> None:
    shell.people_changed()  # the header's menus of that user
    if raw:  # loaddata: leave the fixture as it is
        return
    sync_admin_access(instance.user)


@receiver(post_save, sender=Player, dispatch_uid="club_player_saved_shell")
@receiver(post_delete, sender=Player, dispatch_uid="club_player_deleted_shell")
@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="club_user_saved_shell")
@receiver(post_delete, sender=settings.AUTH_USER_MODEL, dispatch_uid="club_user_deleted_shell")
def person_changed(sender, **kwargs) -> None:
    """A player renamed, claimed or unlinked, a user renamed: the header's kept names (club.shell) are read afresh."""
    shell.people_changed()


@receiver(post_save, sender=Player, dispatch_uid="club_player_home_member")
def player_saved(sender, instance: Player, raw: bool = False, **kwargs) -> None:
    """A player's home club is one of his clubs: saving a player with a home club makes him its member (from the
    day he joined), however he was made (a form, the admin, a sign-up, the judge's screen). A bulk insert (the
    protocol import) writes the membership itself."""
    if raw or instance.club_id is None:
        return
    ClubMember.objects.get_or_create(player=instance, club_id=instance.club_id, defaults={"joined": instance.joined})
